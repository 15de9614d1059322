package io.celer.bench;

import static com.tngtech.archunit.base.DescribedPredicate.alwaysTrue;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;

import io.celer.test.Packages;

/**
 * Each benchmark is a package on the shared harness and peer kit and imports no other benchmark; the harness and
 * the peers import no benchmark, the peers not the harness, and neither the launcher.
 */
class BenchLayersTest
{
    private static final JavaClasses BENCH = Packages.mainClasses("io.celer.bench");

    @Test
    void benchmarksDoNotImportEachOther()
    {
        slices().matching("io.celer.bench.(*)..").should().notDependOnEachOther()
            .ignoreDependency(alwaysTrue(), resideInAnyPackage("io.celer.bench.harness..", "io.celer.bench.peer.."))
            .check(BENCH);
    }

    @Test
    void peersRunWithoutTheHarness()
    {
        noClasses().that().resideInAPackage("io.celer.bench.peer..")
            .should().dependOnClassesThat().resideInAPackage("io.celer.bench.harness..")
            .check(BENCH);
    }

    @Test
    void noBenchmarkImportsTheLauncher()
    {
        noClasses().that().resideInAPackage("io.celer.bench.*..")
            .should().dependOnClassesThat().resideInAPackage("io.celer.bench")
            .check(BENCH);
    }

    @Test
    void noPackageCycles()
    {
        Packages.assertFreeOfCycles(BENCH, "io.celer.bench");
    }
}
