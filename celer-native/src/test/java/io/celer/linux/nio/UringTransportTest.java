package io.celer.linux.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.channels.spi.SelectorProvider;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The native transport's reactor, TCP and UDP tests on io_uring, and what only a completion transport has: its
 * receives cancelled and its buffers returned, a buffer ring running dry, staged bytes that a close waits for.
 */
class UringTransportTest extends NativeTransportTests
{
    @Override
    SelectorProvider provider()
    {
        return UringSelectorProvider.INSTANCE;
    }

    @Override
    boolean confinesChannelIo()
    {
        return true;
    }

    @Test
    void theSelectorsAreRingsWhereTheKernelGivesThem() throws Exception
    {
        if (UringSelectorProvider.INSTANCE.refusal() == null)
        {
            try (java.nio.channels.Selector selector = UringSelectorProvider.INSTANCE.openSelector())
            {
                assertThat(selector).isInstanceOf(UringSelector.class);
            }
        }
    }

    @Test
    void aKernelThatRefusesIoUringGetsEpollSaidOnce() throws Exception
    {
        final Process child = new ProcessBuilder(List.of(
            System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
            "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
            UringRefusedMain.class.getName())).redirectErrorStream(true).start();
        final String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(output).isZero();
        assertThat(output).contains("refusal=the kernel refused an io_uring: EPERM")
            .contains("selector=EpollSelector").contains("echo=ping");
        assertThat(output.split("io_uring is not available", -1)).as("said once: " + output).hasSize(2);
    }
}
