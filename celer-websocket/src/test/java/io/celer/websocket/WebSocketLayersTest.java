package io.celer.websocket;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;

import io.celer.test.Packages;
import io.celer.test.PublicApi;

/**
 * The WebSocket packages depend one way: the API on nothing, permessage-deflate's parameters on the API alone,
 * the internals on both, the back-pressured outboxes on the internals, and the server and client on top; none
 * forms a cycle.
 */
class WebSocketLayersTest
{
    private static final JavaClasses WEBSOCKET = Packages.mainClasses("io.celer.websocket");

    @Test
    void layersPointOneWay()
    {
        layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .ensureAllClassesAreContainedInArchitecture()
            .layer("api").definedBy("io.celer.websocket")
            .layer("deflate").definedBy("io.celer.websocket.deflate..")
            .layer("internal").definedBy("io.celer.websocket.internal..")
            .layer("outbound").definedBy("io.celer.websocket.outbound..")
            .layer("server").definedBy("io.celer.websocket.server..")
            .layer("client").definedBy("io.celer.websocket.client..")
            .whereLayer("api").mayNotAccessAnyLayer()
            .whereLayer("deflate").mayOnlyAccessLayers("api")
            .whereLayer("internal").mayOnlyAccessLayers("api", "deflate")
            .whereLayer("outbound").mayOnlyAccessLayers("api", "internal")
            .whereLayer("server").mayOnlyAccessLayers("api", "internal", "deflate")
            .whereLayer("client").mayOnlyAccessLayers("api", "internal", "deflate")
            .check(WEBSOCKET);
    }

    @Test
    void publicTypesAreTheListedApi()
    {
        PublicApi.assertListed(WEBSOCKET, "celer-websocket");
    }

    @Test
    void noPackageCycles()
    {
        Packages.assertFreeOfCycles(WEBSOCKET, "io.celer.websocket");
    }
}
