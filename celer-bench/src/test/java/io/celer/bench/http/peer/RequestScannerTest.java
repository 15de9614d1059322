package io.celer.bench.http.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.celer.examples.http.TimeBlockPage;

/**
 * The hand-written peers' request parsing: routes, versions, Connection headers, pipelining, partial heads.
 */
class RequestScannerTest
{
    private final RequestScanner scanner = new RequestScanner();

    @Test
    void findsPipelinedRequestsOneByOne()
    {
        final byte[] bytes = ascii("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\nGET /gettimeblock?x=1 HTTP/1.1\r\n\r\nGET /pl");
        final int first = scanner.scan(bytes, 0, bytes.length);
        assertThat(scanner.route()).isEqualTo(RequestScanner.PLAINTEXT);
        assertThat(scanner.keepAlive()).isTrue();
        final int second = scanner.scan(bytes, first, bytes.length);
        assertThat(scanner.route()).isEqualTo(RequestScanner.TIME_BLOCK);
        assertThat(RawResponses.keepsOpen(scanner)).as("the page always closes").isFalse();
        assertThat(scanner.scan(bytes, second, bytes.length)).as("an incomplete head").isEqualTo(-1);
    }

    @Test
    void readsVersionAndConnectionHeader()
    {
        scan("GET /plaintext HTTP/1.0\r\n\r\n");
        assertThat(scanner.http10()).isTrue();
        assertThat(scanner.keepAlive()).isFalse();
        scan("GET /plaintext HTTP/1.0\r\nconnection: Keep-Alive\r\n\r\n");
        assertThat(scanner.keepAlive()).isTrue();
        scan("GET /plaintext HTTP/1.1\r\nHost: a\r\nCONNECTION: close\r\n\r\n");
        assertThat(scanner.http10()).isFalse();
        assertThat(scanner.keepAlive()).isFalse();
        scan("GET /plaintext/more HTTP/1.1\r\n\r\n");
        assertThat(scanner.route()).isEqualTo(RequestScanner.NOT_FOUND);
    }

    @Test
    void writesThePageInTheResponse()
    {
        scan("GET /gettimeblock HTTP/1.0\r\n\r\n");
        final byte[] out = new byte[RawResponses.MAX_LENGTH];
        final int end = new RawResponses("Test").write(scanner, out, 0);
        final String response = new String(out, 0, end, StandardCharsets.US_ASCII);
        assertThat(response).startsWith("HTTP/1.1 200 OK\r\nServer: Test\r\nDate: ")
            .contains("\r\nConnection: close\r\n");
        final String body = response.substring(response.indexOf("\r\n\r\n") + 4);
        assertThat(body).hasSize(TimeBlockPage.LENGTH).matches(HttpPeerChecks.PAGE);
    }

    private void scan(final String head)
    {
        final byte[] bytes = ascii(head);
        assertThat(scanner.scan(bytes, 0, bytes.length)).isEqualTo(bytes.length);
    }

    private static byte[] ascii(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
