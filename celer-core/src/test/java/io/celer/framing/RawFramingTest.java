package io.celer.framing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class RawFramingTest
{
    @Test
    void leavesWhatTheHandlerDidNotConsume()
    {
        final ByteBuffer buffer = ByteBuffer.wrap("abcdef".getBytes(StandardCharsets.US_ASCII));
        new RawFraming().decode(buffer, message ->
        {
            message.position(message.position() + 4);
            return true;
        });
        assertThat(buffer.position()).isEqualTo(4);
        assertThat(buffer.limit()).isEqualTo(6);
    }

    @Test
    void callsNobodyForAnEmptyBuffer()
    {
        new RawFraming().decode(ByteBuffer.allocate(0), message ->
        {
            throw new AssertionError("no message expected");
        });
    }
}
