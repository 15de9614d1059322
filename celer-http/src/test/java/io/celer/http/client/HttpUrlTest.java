package io.celer.http.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * URLs cut into scheme, host, port and target, and the authorities of the pool's host list.
 */
class HttpUrlTest
{
    @Test
    void defaultsThePortByScheme()
    {
        assertThat(HttpUrl.parse("http://example.com")).isEqualTo(new HttpUrl(false, "example.com", 80, "/"));
        assertThat(HttpUrl.parse("HTTPS://example.com/a/b?c=d#frag"))
            .isEqualTo(new HttpUrl(true, "example.com", 443, "/a/b?c=d"));
    }

    @Test
    void readsPortsQueriesAndIpv6()
    {
        assertThat(HttpUrl.parse("http://127.0.0.1:8080?x=1")).isEqualTo(new HttpUrl(false, "127.0.0.1", 8080, "/?x=1"));
        assertThat(HttpUrl.parse("https://[::1]:8443/p")).isEqualTo(new HttpUrl(true, "::1", 8443, "/p"));
        assertThat(HttpUrl.parse("https://[::1]/")).isEqualTo(new HttpUrl(true, "::1", 443, "/"));
    }

    @Test
    void writesTheHostFieldWithoutADefaultPort()
    {
        assertThat(HttpUrl.parse("http://example.com:80/").hostHeader()).isEqualTo("example.com");
        assertThat(HttpUrl.parse("https://example.com:80/").hostHeader()).isEqualTo("example.com:80");
        assertThat(HttpUrl.parse("http://[::1]:81/").hostHeader()).isEqualTo("[::1]:81");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "ftp://example.com/", "example.com/path", "http:///path", "http://example.com:0/", "http://example.com:65536/",
        "http://example.com:8x/", "http://user:pw@example.com/", "http://::1/", "http://[::1/",
        "http://example.com/a b", "http://exa mple.com/", "http://example.com:/",
    })
    void rejectsWhatAClientCannotUse(final String url)
    {
        assertThatThrownBy(() -> HttpUrl.parse(url)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void authoritiesOfThePoolNeedAPort()
    {
        assertThat(HttpUrl.parseAuthority("localhost:8080", -1)).isEqualTo(new HttpUrl.Authority("localhost", 8080));
        assertThat(HttpUrl.parseAuthority("[::1]:9", -1)).isEqualTo(new HttpUrl.Authority("::1", 9));
        assertThatThrownBy(() -> HttpUrl.parseAuthority("localhost", -1)).hasMessageContaining("no port");
    }
}
