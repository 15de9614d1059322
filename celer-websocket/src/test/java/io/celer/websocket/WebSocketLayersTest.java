package io.celer.websocket;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;

import io.celer.test.Packages;

/**
 * The WebSocket packages depend one way: the protocol engine on permessage-deflate alone, the handshake and the
 * back-pressured outboxes on the engine, and the server and client on top of both; none forms a cycle.
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
            .layer("deflate").definedBy("io.celer.websocket.deflate..")
            .layer("engine").definedBy("io.celer.websocket")
            .layer("handshake").definedBy("io.celer.websocket.handshake..")
            .layer("outbound").definedBy("io.celer.websocket.outbound..")
            .layer("server").definedBy("io.celer.websocket.server..")
            .layer("client").definedBy("io.celer.websocket.client..")
            .whereLayer("deflate").mayNotAccessAnyLayer()
            .whereLayer("engine").mayOnlyAccessLayers("deflate")
            .whereLayer("handshake").mayOnlyAccessLayers("engine")
            .whereLayer("outbound").mayOnlyAccessLayers("engine")
            .whereLayer("server").mayOnlyAccessLayers("engine", "deflate", "handshake")
            .whereLayer("client").mayOnlyAccessLayers("engine", "deflate", "handshake")
            .check(WEBSOCKET);
    }

    @Test
    void noPackageCycles()
    {
        Packages.assertFreeOfCycles(WEBSOCKET, "io.celer.websocket");
    }
}
