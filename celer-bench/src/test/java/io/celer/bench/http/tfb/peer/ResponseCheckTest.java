package io.celer.bench.http.tfb.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * {@link ResponseCheck} takes right responses whole or in pieces, and refuses each way of being wrong.
 */
class ResponseCheckTest
{
    private static final String RIGHT = "HTTP/1.1 200 OK\r\nServer: S\r\nDate: Sat, 28 Nov 2026 13:00:00 GMT\r\n"
        + "Content-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!";

    private final ResponseCheck check = TfbRoute.PLAINTEXT.check();

    private static ByteBuffer bytes(final String text)
    {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void takesRightResponsesBackToBackWithoutMovingThePosition()
    {
        final ByteBuffer two = bytes(RIGHT + RIGHT.replace("Server: S", "server: Celer")
            .replace("Content-Type", "content-type"));
        assertThat(check.check(two)).isEqualTo(RIGHT.length());
        assertThat(two.position()).isZero();
        two.position(RIGHT.length());
        assertThat(check.check(two)).isEqualTo(two.remaining());
    }

    @Test
    void takesTheLastResponseAgainWithAnotherDateAndNothingElseChanged()
    {
        assertThat(check.check(bytes(RIGHT))).isEqualTo(RIGHT.length());
        assertThat(check.check(bytes(RIGHT.replace("13:00:00", "13:00:01")))).isEqualTo(RIGHT.length());
        wrong(RIGHT.replace("Hello, World!", "Hello, World?"), "a wrong body");
        wrong(RIGHT.replace("Server: S", "Xerver: S"), "Server");
        assertThat(check.check(bytes(RIGHT.substring(0, RIGHT.length() - 1)))).isEqualTo(ResponseCheck.INCOMPLETE);
    }

    @Test
    void waitsForTheRestOfAResponse()
    {
        for (int cut = 0; cut < RIGHT.length(); cut++)
        {
            assertThat(check.check(bytes(RIGHT.substring(0, cut)))).as("cut at %d", cut)
                .isEqualTo(ResponseCheck.INCOMPLETE);
        }
    }

    @Test
    void refusesEveryWayOfBeingWrong()
    {
        wrong(RIGHT.replace("200 OK", "404 Not Found"), "not HTTP/1.1 200");
        wrong(RIGHT.replace("Hello, World!", "Hello, world!"), "a wrong body");
        wrong(RIGHT.replace("Server: S\r\n", ""), "Server");
        wrong(RIGHT.replace("Date: Sat, 28 Nov 2026 13:00:00 GMT\r\n", ""), "Date");
        wrong(RIGHT.replace("Date: Sat, 28 Nov 2026 13:00:00 GMT", "Date: today"), "Date");
        wrong(RIGHT.replace("text/plain", "text/html"), "Content-Type");
        wrong(RIGHT.replace("Content-Length: 13\r\n", ""), "Content-Length");
        wrong(RIGHT.replace("Content-Length: 13", "Content-Length: 12"), "Content-Length 12");
        wrong(RIGHT.replace("Content-Length: 13", "Transfer-Encoding: chunked"), "Transfer-Encoding");
        wrong("HTTP/1.1 200 OK\r\n" + "X: y\r\n".repeat(300), "no end of head");
    }

    private void wrong(final String response, final String reason)
    {
        assertThat(check.check(bytes(response))).as(response).isEqualTo(ResponseCheck.WRONG);
        assertThat(check.problem()).contains(reason);
    }
}
