package io.celer.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every request RFC 9112 tells a server to refuse gets its status, then the connection closes, and a request
 * pipelined behind the bad one gets no response at all: nothing after a smuggling attempt is processed.
 */
class RejectionTest
{
    private static final String NEXT = "GET /ok HTTP/1.1\r\nHost: x\r\n\r\n";
    private static TestServer server;

    @BeforeAll
    static void start()
    {
        server = new TestServer();
    }

    @AfterAll
    static void stop()
    {
        server.close();
    }

    static Stream<Arguments> badRequests()
    {
        return Stream.of(
            bad("Content-Length and Transfer-Encoding", 400,
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
            bad("Transfer-Encoding and Content-Length", 400,
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n"),
            bad("two differing Content-Length fields", 400,
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"),
            bad("a Content-Length list of differing values", 400,
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 6\r\n\r\nhello!"),
            bad("a signed Content-Length", 400, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\nhello"),
            bad("a negative Content-Length", 400, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n"),
            bad("a Content-Length with a space inside", 400,
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1 0\r\n\r\n0123456789"),
            bad("an overflowing Content-Length", 400,
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n"),
            bad("a hexadecimal Content-Length", 400, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 0x5\r\n\r\nhello"),
            bad("codings that do not end in chunked", 400,
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n"),
            bad("chunked applied twice", 400,
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
            bad("an unknown transfer coding", 501,
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: foo, chunked\r\n\r\n0\r\n\r\n"),
            bad("a transfer coding the server does not decode", 501,
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n"),
            bad("an unknown coding alone", 400,
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: foo\r\n\r\n"),
            bad("Transfer-Encoding in HTTP/1.0", 400,
                "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
            bad("whitespace between field name and colon", 400, "GET /ok HTTP/1.1\r\nHost : x\r\n\r\n"),
            bad("a field name with a non-token char", 400, "GET /ok HTTP/1.1\r\nHost: x\r\nBad(name: 1\r\n\r\n"),
            bad("a field line without a colon", 400, "GET /ok HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n"),
            bad("a control char in a field value", 400, "GET /ok HTTP/1.1\r\nHost: x\r\nX: a\u0001b\r\n\r\n"),
            bad("NUL in a field value", 400, "GET /ok HTTP/1.1\r\nHost: x\r\nX: a\u0000b\r\n\r\n"),
            bad("a bare CR in a field value", 400, "GET /ok HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n"),
            bad("a field line ended by a bare LF", 400, "GET /ok HTTP/1.1\r\nHost: x\nX: y\r\n\r\n"),
            bad("a request line ended by a bare LF", 400, "GET /ok HTTP/1.1\nHost: x\r\n\r\n"),
            bad("obsolete line folding", 400, "GET /ok HTTP/1.1\r\nHost: x\r\nX: a\r\n b\r\n\r\n"),
            bad("a folded first field", 400, "GET /ok HTTP/1.1\r\n Host: x\r\n\r\n"),
            bad("HTTP/1.1 without Host", 400, "GET /ok HTTP/1.1\r\nX: y\r\n\r\n"),
            bad("two Host fields", 400, "GET /ok HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n"),
            bad("a Host with a space", 400, "GET /ok HTTP/1.1\r\nHost: a b\r\n\r\n"),
            bad("a Host with a path", 400, "GET /ok HTTP/1.1\r\nHost: a/b\r\n\r\n"),
            bad("a malformed chunk size", 400,
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n"),
            bad("a signed chunk size", 400,
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n+5\r\nhello\r\n0\r\n\r\n"),
            bad("an overflowing chunk size", 400,
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\nx\r\n0\r\n\r\n"),
            bad("chunk data without its CRLF", 400,
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX\r\n0\r\n\r\n"),
            bad("a chunk size line ended by a bare LF", 400,
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n"),
            bad("a malformed chunk extension", 400,
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;=x\r\nhello\r\n0\r\n\r\n"),
            bad("whitespace after a chunk size", 400,
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5 \r\nhello\r\n0\r\n\r\n"),
            bad("a malformed trailer field", 400,
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nBad Trailer: x\r\n\r\n"),
            bad("two spaces in the request line", 400, "GET  /ok HTTP/1.1\r\nHost: x\r\n\r\n"),
            bad("a lower-case version", 400, "GET /ok http/1.1\r\nHost: x\r\n\r\n"),
            bad("HTTP/2.0 over HTTP/1 framing", 505, "GET /ok HTTP/2.0\r\nHost: x\r\n\r\n"),
            bad("a fragment in the target", 400, "GET /ok#frag HTTP/1.1\r\nHost: x\r\n\r\n"),
            bad("a space-free target with a control char", 400, "GET /o\u0001k HTTP/1.1\r\nHost: x\r\n\r\n"),
            bad("a target with a character URIs do not hold", 400, "GET /o\"k HTTP/1.1\r\nHost: x\r\n\r\n"),
            bad("a target with a brace", 400, "GET /ok?a={} HTTP/1.1\r\nHost: x\r\n\r\n"),
            bad("a percent-escape that is not hex", 400, "GET /o%zzk HTTP/1.1\r\nHost: x\r\n\r\n"),
            bad("a percent-escape cut short", 400, "GET /ok% HTTP/1.1\r\nHost: x\r\n\r\n"),
            bad("an authority-form target on GET", 400, "GET example.com:80 HTTP/1.1\r\nHost: x\r\n\r\n"),
            bad("an absolute-form target without a host", 400, "GET http:///ok HTTP/1.1\r\nHost: x\r\n\r\n"),
            bad("an asterisk target on GET", 400, "GET * HTTP/1.1\r\nHost: x\r\n\r\n"),
            bad("a method with a non-token char", 400, "GE(T /ok HTTP/1.1\r\nHost: x\r\n\r\n"),
            bad("an expectation other than 100-continue", 417, "GET /ok HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n"));
    }

    private static Arguments bad(final String what, final int status, final String request)
    {
        return Arguments.of(what, status, request);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("badRequests")
    void rejectsThenClosesAndIgnoresWhatFollows(final String what, final int status, final String request) throws Exception
    {
        try (RawClient client = new RawClient(server.port()))
        {
            client.send(request + NEXT);
            final List<RawClient.Response> responses = client.readUntilClosed();
            assertThat(responses).as(what).hasSize(1);
            assertThat(responses.get(0).status).as(what).isEqualTo(status);
            assertThat(responses.get(0).header("Connection")).isEqualTo("close");
        }
    }
}
