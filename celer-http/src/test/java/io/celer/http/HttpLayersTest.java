package io.celer.http;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

import io.celer.test.Packages;
import io.celer.test.PublicApi;

/**
 * celer-http's public types are the API ARCHITECTURE.md lists; the rest is package-private.
 */
class HttpLayersTest
{
    private static final JavaClasses HTTP = Packages.mainClasses("io.celer.http");

    @Test
    void publicTypesAreTheListedApi()
    {
        PublicApi.assertListed(HTTP, "celer-http");
    }
}
