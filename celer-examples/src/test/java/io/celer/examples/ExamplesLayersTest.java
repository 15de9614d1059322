package io.celer.examples;

import static com.tngtech.archunit.base.DescribedPredicate.alwaysTrue;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;

import io.celer.test.Packages;

/**
 * Each example package stands alone on the library and the shared command-line pieces in {@code cli}: no
 * example imports another, the launcher, Celer's internals, or is imported by {@code cli}.
 */
class ExamplesLayersTest
{
    private static final JavaClasses EXAMPLES = Packages.mainClasses("io.celer.examples");

    @Test
    void examplePackagesDoNotImportEachOther()
    {
        slices().matching("io.celer.examples.(*)..").should().notDependOnEachOther()
            .ignoreDependency(alwaysTrue(), resideInAPackage("io.celer.examples.cli.."))
            .check(EXAMPLES);
    }

    @Test
    void noExampleImportsTheLauncher()
    {
        noClasses().that().resideInAPackage("io.celer.examples.*..")
            .should().dependOnClassesThat().resideInAPackage("io.celer.examples")
            .check(EXAMPLES);
    }

    @Test
    void noExampleImportsCelerInternals()
    {
        // The examples stand for applications: they use only what ARCHITECTURE.md lists as the API.
        noClasses().should().dependOnClassesThat().resideInAPackage("io.celer..internal..")
            .check(EXAMPLES);
    }

    @Test
    void noPackageCycles()
    {
        Packages.assertFreeOfCycles(EXAMPLES, "io.celer.examples");
    }
}
