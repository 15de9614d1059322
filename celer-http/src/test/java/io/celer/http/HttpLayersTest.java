package io.celer.http;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

import io.celer.test.Packages;
import io.celer.test.PublicApi;

/**
 * celer-http's packages depend one way: the shared API (methods, statuses, text views) and the codec under it at
 * the bottom, the server and the client on those and never on each other; its public types are the API
 * ARCHITECTURE.md lists.
 */
class HttpLayersTest
{
    private static final JavaClasses HTTP = Packages.mainClasses("io.celer.http");

    @Test
    void layersPointOneWay()
    {
        // The API and its internal codec use each other (a view compares with the codec's byte helpers, the
        // codec's field table hands out views): one layer, as the no-cycle rule counts them.
        layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .ensureAllClassesAreContainedInArchitecture()
            .layer("api").definedBy("io.celer.http")
            .layer("codec").definedBy("io.celer.http.internal..")
            .layer("server").definedBy("io.celer.http.server..")
            .layer("client").definedBy("io.celer.http.client..")
            .whereLayer("api").mayOnlyAccessLayers("codec")
            .whereLayer("codec").mayOnlyAccessLayers("api")
            .whereLayer("server").mayOnlyAccessLayers("api", "codec")
            .whereLayer("client").mayOnlyAccessLayers("api", "codec")
            .check(HTTP);
    }

    @Test
    void publicTypesAreTheListedApi()
    {
        PublicApi.assertListed(HTTP, "celer-http");
    }

    @Test
    void noPackageCycles()
    {
        Packages.assertFreeOfCycles(HTTP, "io.celer.http");
    }
}
