package io.celer;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;

import io.celer.test.Packages;
import io.celer.test.PublicApi;

/**
 * The core's packages depend one way, from framing, queues and counters up through the reactor and the transports to
 * TLS, and every class of the core sits in one of those layers.
 */
class CoreLayersTest
{
    private static final JavaClasses CORE = Packages.mainClasses("io.celer");

    @Test
    void layersPointOneWay()
    {
        layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .ensureAllClassesAreContainedInArchitecture()
            .layer("counters").definedBy("io.celer.counters..")
            .layer("framing").definedBy("io.celer.framing..")
            .layer("queue").definedBy("io.celer.queue..")
            .layer("reactor").definedBy("io.celer.reactor..")
            .layer("tcp").definedBy("io.celer.tcp..")
            .layer("udp").definedBy("io.celer.udp..")
            .layer("tls").definedBy("io.celer.tls..")
            .whereLayer("counters").mayNotAccessAnyLayer()
            .whereLayer("framing").mayNotAccessAnyLayer()
            .whereLayer("queue").mayNotAccessAnyLayer()
            .whereLayer("reactor").mayOnlyAccessLayers("counters", "framing", "queue")
            .whereLayer("tcp").mayOnlyAccessLayers("counters", "framing", "queue", "reactor")
            .whereLayer("udp").mayOnlyAccessLayers("counters", "framing", "queue", "reactor")
            .whereLayer("tls").mayOnlyAccessLayers("counters", "framing", "queue", "reactor", "tcp")
            .check(CORE);
    }

    @Test
    void publicTypesAreTheListedApi()
    {
        PublicApi.assertListed(CORE, "celer-core");
    }

    @Test
    void noPackageCycles()
    {
        Packages.assertFreeOfCycles(CORE, "io.celer");
    }
}
