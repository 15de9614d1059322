package io.celer.bench.http.tfb.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@link JsonWriter} writes what Jackson writes, escapes and UTF-8 included, and Jackson reads it back.
 */
class JsonWriterTest
{
    private static final ObjectMapper JACKSON = new ObjectMapper();

    @Test
    void writesTheBenchmarksObject()
    {
        final JsonWriter writer = new JsonWriter(64).writeMessage("Hello, World!");
        assertThat(new String(writer.bytes(), 0, writer.length(), StandardCharsets.US_ASCII))
            .isEqualTo("{\"message\":\"Hello, World!\"}");
    }

    @Test
    void writesWhatJacksonWritesForAnyText() throws Exception
    {
        final JsonWriter writer = new JsonWriter(256);
        for (final String text : new String[] {"", "quote \" backslash \\ slash /", "tab\tline\nreturn\r\b\f",
            "\u0000\u0001\u001f\u007f", "é ü ß", "€ 中文"})
        {
            writer.writeMessage(text);
            final byte[] ours = Arrays.copyOf(writer.bytes(), writer.length());
            assertThat(ours).as(text).isEqualTo(JACKSON.writeValueAsBytes(Map.of("message", text)));
            assertThat(JACKSON.readTree(ours).get("message").asText()).isEqualTo(text);
        }
    }

    @Test
    void writesASupplementaryCharacterAsUtf8() throws Exception
    {
        // Jackson escapes it as a pair of surrogates; both forms are JSON, UTF-8 the shorter.
        final String text = "emoji \uD83D\uDE00";
        final JsonWriter writer = new JsonWriter(64).writeMessage(text);
        final byte[] ours = Arrays.copyOf(writer.bytes(), writer.length());
        assertThat(ours).isEqualTo(("{\"message\":\"" + text + "\"}").getBytes(StandardCharsets.UTF_8));
        assertThat(JACKSON.readTree(ours).get("message").asText()).isEqualTo(text);
    }

    @Test
    void replacesALoneSurrogateAndRefusesWhatMayNotFit() throws Exception
    {
        final JsonWriter writer = new JsonWriter(64).writeMessage("a\uD800b");
        assertThat(JACKSON.readTree(Arrays.copyOf(writer.bytes(), writer.length())).get("message").asText())
            .isEqualTo("a\uFFFDb");
        assertThatThrownBy(() -> writer.writeMessage("x".repeat(60))).isInstanceOf(IllegalArgumentException.class);
    }
}
