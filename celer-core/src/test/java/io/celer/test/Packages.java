package io.celer.test;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

/**
 * A module's main classes, for the tests of its layering, and the rule every module keeps: no cycle between its
 * packages.
 */
public final class Packages
{
    /**
     * Leaves out test classes wherever the build puts them: ArchUnit's own option knows {@code target/test-classes}
     * but not a build directory of another name, such as the test suite's {@code target/jdk25}.
     */
    private static final ImportOption NO_TEST_CLASSES =
        location -> !location.contains("/test-classes/") && !location.contains("-tests.jar");

    private Packages()
    {
    }

    /**
     * The main classes under a package on the class path, tests left out.
     *
     * @param root the module's top package, such as {@code io.celer.websocket}.
     * @return the classes.
     */
    public static JavaClasses mainClasses(final String root)
    {
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(NO_TEST_CLASSES).importPackages(root);
    }

    /**
     * Fails when two or more packages under the root import each other, directly or around a loop. A package's
     * {@code internal} subpackage counts as part of it: it holds that package's plumbing, public only so that
     * sibling packages can reach it.
     *
     * @param classes the module's classes.
     * @param root    the package whose subpackages are compared, each on its own.
     */
    public static void assertFreeOfCycles(final JavaClasses classes, final String root)
    {
        slices().assignedFrom(new SliceAssignment()
        {
            @Override
            public SliceIdentifier getIdentifierOf(final JavaClass type)
            {
                final String name = type.getPackageName();
                if (!name.startsWith(root + "."))
                {
                    return SliceIdentifier.ignore();
                }
                final String under = name.substring(root.length() + 1);
                final int internal = ("." + under + ".").indexOf(".internal.");
                return SliceIdentifier.of(internal < 0 ? under : internal == 0 ? "(api)" : under.substring(0, internal - 1));
            }

            @Override
            public String getDescription()
            {
                return "packages under " + root + ", each with its internal subpackage";
            }
        }).should().beFreeOfCycles().check(classes);
    }
}
