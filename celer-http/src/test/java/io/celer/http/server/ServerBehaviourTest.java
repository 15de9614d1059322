package io.celer.http.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import io.celer.http.HeaderField;
import io.celer.http.HttpMethod;

/**
 * Keep-alive by version, HEAD, 100-continue, chunked uploads, target forms and the lenient options.
 */
class ServerBehaviourTest
{
    @AutoClose
    private TestServer server;

    @Test
    void keepsHttp11ConnectionsOpenAndAddsDateAndServer() throws Exception
    {
        server = new TestServer();
        try (RawClient client = new RawClient(server.port()))
        {
            for (int i = 0; i < 3; i++)
            {
                client.send("GET /plaintext HTTP/1.1\r\nHost: x\r\n\r\n");
                final RawClient.Response response = client.read();
                assertThat(response.statusLine).isEqualTo("HTTP/1.1 200 OK");
                assertThat(response.bodyText()).isEqualTo("Hello, World!");
                assertThat(response.header("Content-Length")).isEqualTo("13");
                assertThat(response.header("Content-Type")).isEqualTo("text/plain");
                assertThat(response.header("Server")).isEqualTo("celer");
                assertThat(response.header("Date")).matches("[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT");
                assertThat(response.header("Connection")).isNull();
            }
        }
    }

    @Test
    void preEncodedFieldsAndBodiesOfEverySizeGoOutAsGiven() throws Exception
    {
        final HeaderField pre = HeaderField.of("X-Pre", "one, two");
        final byte[] small = "small".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        final byte[] large = new byte[5_000];
        java.util.Arrays.fill(large, (byte)'L');
        final HeaderField tooLong = HeaderField.of("X-Long", "v".repeat(200));
        server = new TestServer(new HttpServerConfig().responseHeadSize(128), TestServer.routes()
            .get("/small", (req, res) -> res.header(pre).header("X-Plain", 3).body(small))
            .get("/large", (req, res) -> res.header(pre).body(java.nio.ByteBuffer.wrap(large)))
            .get("/too-long", (req, res) -> res.header(tooLong).body(small))
            .build());
        try (RawClient client = new RawClient(server.port()))
        {
            // A body that fits beside the head rides with it; one that does not follows it; a HEAD gets neither.
            client.send("GET /small HTTP/1.1\r\nHost: x\r\n\r\nGET /large HTTP/1.1\r\nHost: x\r\n\r\n"
                + "HEAD /small HTTP/1.1\r\nHost: x\r\n\r\nGET /small HTTP/1.1\r\nHost: x\r\n\r\n");
            final RawClient.Response first = client.read();
            assertThat(first.header("X-Pre")).isEqualTo("one, two");
            assertThat(first.header("X-Plain")).isEqualTo("3");
            assertThat(first.bodyText()).isEqualTo("small");
            final RawClient.Response second = client.read();
            assertThat(second.header("X-Pre")).isEqualTo("one, two");
            assertThat(second.body).isEqualTo(large);
            final RawClient.Response head = client.read(true);
            assertThat(head.header("Content-Length")).isEqualTo("5");
            assertThat(client.read().bodyText()).isEqualTo("small");
        }
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET /too-long HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.read().statusLine).as("a head past its buffer fails the handler")
                .isEqualTo("HTTP/1.1 500 Internal Server Error");
        }
    }

    @Test
    void dateHeaderMatchesTheClock() throws Exception
    {
        // The server reads the clock when it starts and once a second after: the date it sends lies between the
        // second the server started in and the moment the answer arrived, however slowly the machine runs.
        final long before = System.currentTimeMillis();
        server = new TestServer();
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
            final String date = client.read().header("Date");
            final long after = System.currentTimeMillis();
            final long served = java.time.ZonedDateTime.parse(date, java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME)
                .toInstant().toEpochMilli();
            assertThat(served).as("the Date field, in epoch milliseconds")
                .isBetween(Math.floorDiv(before, 1000) * 1000, after);
        }
    }

    @Test
    void closesAfterConnectionClose() throws Exception
    {
        server = new TestServer();
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
            final List<RawClient.Response> responses = client.readUntilClosed();
            assertThat(responses).hasSize(1);
            assertThat(responses.get(0).header("Connection")).isEqualTo("close");
        }
    }

    @Test
    void aHandlerClosesTheConnectionAfterItsResponse() throws Exception
    {
        server = new TestServer(new HttpServerConfig(), TestServer.routes()
            .get("/last", (req, res) -> res.closeConnection().body("last")).build());
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\nGET /last HTTP/1.1\r\nHost: x\r\n\r\n" +
                "GET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
            final List<RawClient.Response> responses = client.readUntilClosed();
            assertThat(responses).extracting(RawClient.Response::bodyText).containsExactly("ok", "last");
            assertThat(responses.get(0).header("Connection")).isNull();
            assertThat(responses.get(1).header("Connection")).isEqualTo("close");
        }
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET /last HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /ok HTTP/1.0\r\n\r\n");
            final List<RawClient.Response> responses = client.readUntilClosed();
            assertThat(responses).hasSize(1);
            assertThat(responses.get(0).header("Connection")).isEqualTo("close");
        }
    }

    @Test
    void http10ClosesByDefaultAndKeepsAliveWhenAsked() throws Exception
    {
        server = new TestServer();
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET /ok HTTP/1.0\r\n\r\nGET /ok HTTP/1.0\r\n\r\n");
            final List<RawClient.Response> responses = client.readUntilClosed();
            assertThat(responses).hasSize(1);
            assertThat(responses.get(0).bodyText()).isEqualTo("ok");
        }
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET /ok HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            final RawClient.Response first = client.read();
            assertThat(first.header("Connection")).isEqualTo("keep-alive");
            client.send("GET /ok HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            assertThat(client.read().bodyText()).isEqualTo("ok");
        }
    }

    @Test
    void headHasTheFieldsOfGetWithoutTheBody() throws Exception
    {
        server = new TestServer();
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("HEAD /plaintext HTTP/1.1\r\nHost: x\r\n\r\nGET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
            final RawClient.Response head = client.read(true);
            assertThat(head.status).isEqualTo(200);
            assertThat(head.header("Content-Length")).isEqualTo("13");
            final RawClient.Response next = client.read(); // would read the HEAD body bytes if any were sent
            assertThat(next.statusLine).isEqualTo("HTTP/1.1 200 OK");
            assertThat(next.bodyText()).isEqualTo("ok");
        }
    }

    @Test
    void sendsContinueBeforeReadingAnExpectedBody() throws Exception
    {
        server = new TestServer();
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n");
            final RawClient.Response interim = client.read();
            assertThat(interim.statusLine).isEqualTo("HTTP/1.1 100 Continue");
            client.send("hello");
            final RawClient.Response response = client.read();
            assertThat(response.status).isEqualTo(200);
            assertThat(response.bodyText()).isEqualTo("hello");
        }
    }

    @Test
    void refusesAnExpectedBodyThatIsTooLargeWithoutReadingIt() throws Exception
    {
        server = new TestServer(new HttpServerConfig().maxBodySize(100));
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\nExpect: 100-continue\r\n\r\n");
            final List<RawClient.Response> responses = client.readUntilClosed();
            assertThat(responses).extracting(r -> r.status).containsExactly(413);
        }
    }

    @Test
    void decodesChunkedUploadsWithExtensionsAndTrailers() throws Exception
    {
        server = new TestServer();
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
                "5;name=value;flag\r\nhello\r\n" +
                "1 ; quoted=\"a \\\"b\\\" c\"\r\n,\r\n" +
                "6\r\n world\r\n" +
                "0;last\r\nChecksum: abc\r\nOther-Trailer: 1\r\n\r\n" +
                "GET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
            final RawClient.Response echoed = client.read();
            assertThat(echoed.bodyText()).isEqualTo("hello, world");
            assertThat(client.read().bodyText()).isEqualTo("ok");
        }
    }

    @Test
    void decodesAChunkedUploadSentOneByteAtATime() throws Exception
    {
        server = new TestServer();
        try (RawClient client = new RawClient(server.port()))
        {
            final String request = "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
                "3;a=b\r\nabc\r\n2\r\nde\r\n0\r\nT: v\r\n\r\n";
            for (final char c : request.toCharArray())
            {
                client.send(String.valueOf(c));
                Thread.sleep(1);
            }
            assertThat(client.read().bodyText()).isEqualTo("abcde");
        }
    }

    @Test
    void acceptsAbsoluteFormAndIdenticalLengths() throws Exception
    {
        final List<String> seen = new ArrayList<>();
        server = new TestServer(new HttpServerConfig(), (req, res) ->
        {
            seen.add(req.method() + " " + req.path() + " ? " + req.query() + " host=" + req.header("host"));
            res.body(req.body());
        });
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("PUT http://example.com/a/b?x=1 HTTP/1.1\r\nHost: example.com\r\n" +
                "Content-Length: 3\r\nContent-Length: 3, 3\r\n\r\nabc");
            assertThat(client.read().bodyText()).isEqualTo("abc");
        }
        assertThat(seen).containsExactly("PUT /a/b ? x=1 host=example.com");
    }

    @Test
    void joinsFoldedLinesWhenAllowed() throws Exception
    {
        server = new TestServer(new HttpServerConfig().allowObsFold(true),
            (req, res) -> res.body(req.header("X-Folded")));
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET / HTTP/1.1\r\nHost: x\r\nX-Folded: a\r\n  b\r\n\tc\r\n\r\n");
            assertThat(client.read().bodyText()).isEqualTo("a    b  \tc");
        }
    }

    @Test
    void routesByMethodAndPath() throws Exception
    {
        server = new TestServer(new HttpServerConfig(), TestServer.routes()
            .prefix(HttpMethod.GET, "/static/", (req, res) -> res.body("static " + req.path()))
            .build());
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET /static/a.css HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.read().bodyText()).isEqualTo("static /static/a.css");
            client.send("GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.read().status).isEqualTo(404);
        }
    }

    @Test
    void routesMatchPathsAsRfc3986ComparesThemAndHandlersCanDecodeThem() throws Exception
    {
        final byte[] decoded = new byte[64];
        server = new TestServer(new HttpServerConfig(), TestServer.routes()
            .prefix(HttpMethod.GET, "/st%61tic/", (req, res) -> res.body("static " + req.path()))
            .get("/a%2Fb", (req, res) -> res.body("slash"))
            .get("/files", (req, res) ->
            {
                final int n = req.decodePath(decoded);
                res.body(n < 0 ? "too long" : new String(decoded, 0, n, java.nio.charset.StandardCharsets.UTF_8));
            })
            .prefix(HttpMethod.GET, "/files/", (req, res) ->
            {
                final int n = req.decodePath(decoded);
                res.body(n < 0 ? "too long" : new String(decoded, 0, n, java.nio.charset.StandardCharsets.UTF_8));
            })
            .build());
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET /%70lain%74ext HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.read().bodyText()).isEqualTo("Hello, World!");
            client.send("GET /%73tatic/a.css HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.read().bodyText()).isEqualTo("static /%73tatic/a.css");
            client.send("GET /static/a.css HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.read().bodyText()).isEqualTo("static /static/a.css");
            client.send("GET /a%2fb HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.read().bodyText()).isEqualTo("slash");
            client.send("GET /a/b HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.read().status).as("an encoded '/' is not a separator").isEqualTo(404);
            client.send("GET /%6Fk%3F HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.read().status).as("an encoded '?' is not the query").isEqualTo(404);
            client.send("GET /files/caf%C3%A9%20au%20lait.txt?x=%41 HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.read().bodyText()).isEqualTo("/files/café au lait.txt");
            client.send("GET /files/" + "a".repeat(60) + " HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.read().bodyText()).isEqualTo("too long");
        }
        assertThatThrownBy(() -> Router.builder().get("/a b", (req, res) -> res.end()))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("percent-encode");
        assertThatThrownBy(() -> Router.builder().get("/a%2", (req, res) -> res.end()))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("broken percent-escape");
    }

    @Test
    void aMethodNoRouteTakesIsAnswered405WithTheMethodsThatAre() throws Exception
    {
        server = new TestServer(new HttpServerConfig(), TestServer.routes()
            .exact(HttpMethod.PUT, "/ok", (req, res) -> res.body("put"))
            .build());
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("DELETE /ok HTTP/1.1\r\nHost: x\r\n\r\n");
            final RawClient.Response refused = client.read();
            assertThat(refused.status).isEqualTo(405);
            assertThat(refused.header("Allow")).isEqualTo("GET, HEAD, PUT");
            client.send("POST /plaintext HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
            assertThat(client.read().header("Allow")).isEqualTo("GET, HEAD");
            client.send("FOO /echo HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.read().header("Allow")).isEqualTo("POST");
            client.send("PUT /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
            assertThat(client.read().bodyText()).isEqualTo("put");
        }
    }

    @Test
    void optionsIsAnsweredWithTheMethodsOfThePathOrOfTheServer() throws Exception
    {
        server = new TestServer();
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("OPTIONS /echo HTTP/1.1\r\nHost: x\r\n\r\n");
            final RawClient.Response echo = client.read();
            assertThat(echo.status).isEqualTo(200);
            assertThat(echo.header("Allow")).isEqualTo("POST, OPTIONS");
            assertThat(echo.header("Content-Length")).isEqualTo("0");
            client.send("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n");
            final RawClient.Response all = client.read();
            assertThat(all.status).isEqualTo(200);
            assertThat(all.header("Allow")).isEqualTo("GET, HEAD, POST, OPTIONS");
            client.send("OPTIONS /nowhere HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.read().status).isEqualTo(404);
            client.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.read().bodyText()).isEqualTo("ok");
        }
    }

    @Test
    void refusesResponseFieldsThatWouldSplitTheResponse() throws Exception
    {
        final java.util.concurrent.ConcurrentLinkedQueue<String> errors = new java.util.concurrent.ConcurrentLinkedQueue<>();
        server = new TestServer(new HttpServerConfig(), (req, res) ->
        {
            for (final String[] field : new String[][] {{"X", "a\r\nSet-Cookie: evil"}, {"Bad Name", "v"}, {"", "v"}})
            {
                try
                {
                    res.header(field[0], field[1]);
                }
                catch (final IllegalArgumentException ex)
                {
                    errors.add(ex.getMessage());
                }
            }
            res.body("safe");
        });
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            final RawClient.Response response = client.read();
            assertThat(response.bodyText()).isEqualTo("safe");
            assertThat(response.headers).doesNotContainKeys("set-cookie", "x", "bad name");
        }
        assertThat(errors).hasSize(3);
    }

    @Test
    void nothingAfterAFailedStreamedRequestIsHandledEvenBehindALateAnswer() throws Exception
    {
        final List<String> handled = new java.util.concurrent.CopyOnWriteArrayList<>();
        server = new TestServer(new HttpServerConfig(), (req, res) ->
        {
            handled.add(req.path().toString());
            if (req.pathEquals("/late"))
            {
                res.connection().reactor().schedule(200, (id, now) -> res.body("late"));
            }
            else if (req.pathEquals("/boom"))
            {
                throw new IllegalStateException("boom");
            }
            else
            {
                res.body("after");
            }
        });
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET /late HTTP/1.1\r\nHost: x\r\n\r\n" +
                "POST /boom HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n" + "b".repeat(100_000) +
                "GET /after HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.readUntilClosed()).extracting(r -> r.status).containsExactly(200, 500);
        }
        assertThat(handled).containsExactly("/late", "/boom");
    }

    @Test
    void answers500WhenTheHandlerThrowsAndCloses() throws Exception
    {
        server = new TestServer(new HttpServerConfig(), (req, res) ->
        {
            throw new IllegalStateException("boom");
        });
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.readUntilClosed()).extracting(r -> r.status).containsExactly(500);
        }
    }
}
