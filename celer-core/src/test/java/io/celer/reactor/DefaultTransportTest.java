package io.celer.reactor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.channels.spi.SelectorProvider;

import org.junit.jupiter.api.Test;

/**
 * {@code -Dceler.transport}: the JDK's provider by default, the native one by name, and a clear error otherwise.
 */
class DefaultTransportTest
{
    @Test
    void nioIsTheJdksProviderAndTheDefault()
    {
        assertThat(DefaultTransport.resolve("nio")).isSameAs(SelectorProvider.provider());
        assertThat(new ReactorConfig().selectorProvider()).isSameAs(SelectorProvider.provider());
    }

    @Test
    void anUnknownTransportIsRefusedByName()
    {
        assertThatThrownBy(() -> DefaultTransport.resolve("kqueue")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("nio, epoll or uring").hasMessageContaining("kqueue");
    }

    @Test
    void epollWithoutTheNativeModuleSaysWhatIsMissing()
    {
        // celer-core's tests do not have celer-native on their path; its own tests run the provider.
        assertThatThrownBy(() -> DefaultTransport.resolve("epoll")).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("celer-native").hasMessageContaining("JDK 22");
        assertThatThrownBy(() -> DefaultTransport.resolve("uring")).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("celer.transport=uring").hasMessageContaining("celer-native");
    }
}
