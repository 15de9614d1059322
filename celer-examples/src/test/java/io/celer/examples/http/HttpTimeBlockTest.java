package io.celer.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.examples.Demo;
import io.celer.examples.cli.Running;
import io.celer.examples.support.DemoRuns;
import io.celer.examples.support.Loopback;
import io.celer.test.SteadyAllocation;
import io.celer.test.Transports;

/**
 * {@code ./celer demo http-timeblock}: the page's form, written without garbage, and the server closing every
 * connection after its one response, to the JDK's HttpClient and to raw sockets.
 */
class HttpTimeBlockTest
{
    private static final String PAGE = "<html><body><h1>\\d{4096}</h1></body></html>";

    @RegisterExtension
    final DemoRuns demos = new DemoRuns(Demo::execute);

    @Test
    void aPageIs512BlocksOfTheClocksDigitsWrittenWithoutGarbage() throws Exception
    {
        final ByteBuffer page = ByteBuffer.allocate(TimeBlockPage.LENGTH + 10);
        page.position(10);
        TimeBlockPage.write(page);
        assertThat(page.position()).isEqualTo(10 + TimeBlockPage.LENGTH);
        assertThat(TimeBlockPage.LENGTH).isEqualTo(16 + 512 * 8 + 19);
        final String first = new String(page.array(), 10, TimeBlockPage.LENGTH, StandardCharsets.US_ASCII);
        assertThat(first).matches(PAGE);

        // Each block is the clock read then: across a whole page the clock moves, so the blocks are not all one.
        final String digits = first.substring(16, 16 + 4096);
        assertThat(digits.substring(0, 8).repeat(512)).isNotEqualTo(digits);

        writePages(page, 20_000);
        assertThat(SteadyAllocation.perWindow(Thread.currentThread(), () -> writePages(page, 5_000)))
            .as("bytes allocated per window of 5,000 pages").endsWith(0L);
    }

    private static void writePages(final ByteBuffer page, final int count)
    {
        for (int round = 0; round < count; round++)
        {
            page.clear();
            TimeBlockPage.write(page);
        }
    }

    @Test
    void theJdkClientGetsAFreshPageEachTime() throws Exception
    {
        final Running demo = demos.start("http-timeblock", "--host", Loopback.HOST, "--port", "0");
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(20)).build();
        final URI uri = URI.create("http://127.0.0.1:" + demo.port() + "/gettimeblock");
        final HttpResponse<String> first = client.send(HttpRequest.newBuilder(uri).build(), BodyHandlers.ofString());
        final HttpResponse<String> second = client.send(HttpRequest.newBuilder(uri).build(), BodyHandlers.ofString());
        for (final HttpResponse<String> response : List.of(first, second))
        {
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("content-type")).contains("text/html");
            assertThat(response.body()).hasSize(TimeBlockPage.LENGTH).matches(PAGE);
        }
        assertThat(second.body()).as("computed per request").isNotEqualTo(first.body());
        assertThat(demos.stop(demo)).isZero();
    }

    @Test
    void everyResponseClosesItsConnection() throws Exception
    {
        final Running demo = demos.start("http-timeblock", "--host", Loopback.HOST, "--port", "0");
        // Keep-alive asked, a second request pipelined: one answer, then the close.
        final WireResponse page = exchange(demo, "GET /gettimeblock HTTP/1.1\r\nHost: x\r\n\r\n" +
            "GET /gettimeblock HTTP/1.1\r\nHost: x\r\n\r\n", false);
        assertThat(page.header("Connection")).isEqualTo("close");
        assertThat(page.header("Content-Length")).isEqualTo(Integer.toString(TimeBlockPage.LENGTH));
        assertThat(page.text()).matches(PAGE);

        final WireResponse head = exchange(demo, "HEAD /gettimeblock HTTP/1.1\r\nHost: x\r\n\r\n", true);
        assertThat(head.header("Connection")).isEqualTo("close");
        assertThat(head.header("Content-Length")).isEqualTo(Integer.toString(TimeBlockPage.LENGTH));

        final WireResponse http10 = exchange(demo, "GET /gettimeblock HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
            false);
        assertThat(http10.header("Connection")).isEqualTo("close");
        assertThat(http10.text()).matches(PAGE);

        final WireResponse missing = exchange(demo, "GET /other HTTP/1.1\r\nHost: x\r\n\r\n", false);
        assertThat(missing.status).isEqualTo(404);
        assertThat(missing.header("Connection")).isEqualTo("close");

        final WireResponse post = exchange(demo, "POST /gettimeblock HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
            false);
        assertThat(post.status).isEqualTo(405);
        assertThat(post.header("Allow")).isEqualTo("GET, HEAD");
        assertThat(post.header("Connection")).isEqualTo("close");
    }

    /** Sends requests and reads one response; fails unless the server closes right after it. */
    private static WireResponse exchange(final Running demo, final String requests, final boolean head)
        throws Exception
    {
        try (Socket socket = Transports.PLAIN.connect(Loopback.HOST, demo.port()))
        {
            socket.getOutputStream().write(requests.getBytes(StandardCharsets.US_ASCII));
            final InputStream in = new BufferedInputStream(socket.getInputStream());
            final WireResponse response = WireResponse.read(in, head);
            assertThat(in.read()).as("closed after %s", response).isEqualTo(-1);
            return response;
        }
    }
}
