package io.celer.http.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.http.internal.ResponseError;

/**
 * The response decoder over every way a body is delimited, with the input cut at every size (as reads cut it),
 * and a rejection per malformed head or framing.
 */
class ResponseDecoderTest
{
    /** What a run of the decoder produced: a line per response, or the error. */
    private static final class Run implements ResponseListener
    {
        final List<String> events = new ArrayList<>();
        final StringBuilder streamed = new StringBuilder();

        @Override
        public void response(final HttpClientResponse response)
        {
            final StringBuilder trailers = new StringBuilder();
            for (int i = 0; i < response.trailerCount(); i++)
            {
                trailers.append(' ').append(response.trailerName(i)).append('=').append(response.trailerValue(i));
            }
            events.add(response.status() + " " + text(response.body()) + (response.isStreamed() ? " streamed" : "") +
                trailers);
        }

        @Override
        public void bodyChunk(final HttpClientResponse response, final ByteBuffer chunk)
        {
            streamed.append(text(chunk));
        }

        @Override
        public void error(final HttpClientException failure)
        {
            events.add("failure");
        }
    }

    private static String text(final ByteBuffer buffer)
    {
        final byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /**
     * Feeds the input in pieces of a size, keeping unread bytes as a raw-framed connection does.
     *
     * @param heads which responses answer HEAD requests.
     */
    private static Run feed(final String input, final int piece, final boolean closeAtEnd, final boolean... heads)
    {
        final ResponseDecoder decoder = new ResponseDecoder(1024, 16, 64);
        final Run run = new Run();
        final byte[] bytes = input.getBytes(StandardCharsets.ISO_8859_1);
        final ByteBuffer buffer = ByteBuffer.allocate(4096);
        int responses = 0;
        for (int at = 0; at < bytes.length; at += piece)
        {
            buffer.put(bytes, at, Math.min(piece, bytes.length - at)).flip();
            int result;
            do
            {
                final boolean head = responses < heads.length && heads[responses];
                result = decoder.decode(buffer, head, run);
                if (result == ResponseDecoder.COMPLETE)
                {
                    responses++;
                    run.response(decoder.response());
                }
                else if (result == ResponseDecoder.ERROR)
                {
                    run.events.add("error: " + decoder.error().message());
                    return run;
                }
            }
            while (result == ResponseDecoder.COMPLETE && buffer.hasRemaining());
            buffer.compact();
        }
        if (closeAtEnd)
        {
            final int result = decoder.closed(run);
            if (result == ResponseDecoder.COMPLETE)
            {
                run.response(decoder.response());
            }
            else if (result == ResponseDecoder.ERROR)
            {
                run.events.add("error: " + decoder.error().message());
            }
        }
        return run;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 13, 64, 4096})
    void decodesEveryFramingWhateverTheReadSizes(final int piece)
    {
        final String input =
            "HTTP/1.1 100 Continue\r\n\r\n" +
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello" +
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=\"y\"\r\nabc\r\n2\r\nde\r\n0\r\nT: v\r\n\r\n" +
            "HTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\n" +
            "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n" + // to HEAD: the length is the GET's
            "HTTP/1.1 304 Not Modified\r\n\r\n" +
            "HTTP/1.0 200 OK\r\n\r\nuntil the close";
        final Run run = feed(input, piece, true, false, false, false, true);
        assertThat(run.events).containsExactly("200 hello", "200 abcde T=v", "204 ", "200 ", "304 ",
            "200 until the close");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4096})
    void trailerFieldsAreReadByNameAndBelongToTheirResponseOnly(final int piece)
    {
        final ResponseDecoder decoder = new ResponseDecoder(1024, 16, 64);
        final List<String> seen = new ArrayList<>();
        final ResponseListener listener = new ResponseListener()
        {
            @Override
            public void response(final HttpClientResponse response)
            {
                seen.add(response.trailerCount() + " " + response.trailer("checksum") + " " +
                    response.trailer("X-Status") + " " + response.header("content-type"));
            }

            @Override
            public void error(final HttpClientException failure)
            {
                seen.add("failure");
            }
        };
        final String input =
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n" +
            "2\r\nab\r\n0\r\nChecksum: 1234 \r\nX-Status:done\r\n\r\n" +
            "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nz" +
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n";
        final ByteBuffer buffer = ByteBuffer.wrap(input.getBytes(StandardCharsets.ISO_8859_1));
        final ByteBuffer window = ByteBuffer.allocate(4096);
        while (buffer.hasRemaining())
        {
            final int n = Math.min(piece, buffer.remaining());
            window.put(buffer.slice(buffer.position(), n)).flip();
            buffer.position(buffer.position() + n);
            while (window.hasRemaining() && decoder.decode(window, false, listener) == ResponseDecoder.COMPLETE)
            {
                listener.response(decoder.response());
                decoder.release();
            }
            window.compact();
        }
        assertThat(seen).containsExactly("2 1234 done text/plain", "0 null null null", "0 null null null");
    }

    @Test
    void trailersThatDoNotFitBehindTheHeadAreAnError()
    {
        final Run run = feed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: " + "a".repeat(1000) +
            "\r\n\r\n", 4096, false);
        assertThat(run.events).containsExactly("error: " + ResponseError.BAD_CHUNKED.message());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 5, 100})
    void streamsABodyLargerThanTheBuffer(final int piece)
    {
        final String body = "0123456789".repeat(20);
        final Run run = feed("HTTP/1.1 200 OK\r\nContent-Length: 200\r\n\r\n" + body +
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", piece, false);
        assertThat(run.streamed.toString()).isEqualTo(body);
        assertThat(run.events).containsExactly("200  streamed", "200 ok");
    }

    @Test
    void readsHeadersAndFoldsObsoleteLineFolding()
    {
        final ResponseDecoder decoder = new ResponseDecoder(1024, 16, 64);
        final ByteBuffer in = ByteBuffer.wrap(("HTTP/1.1 404 Not Found\r\nX-Folded: a\r\n  b\r\n" +
            "content-type:  text/plain \r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
            .getBytes(StandardCharsets.ISO_8859_1));
        assertThat(decoder.decode(in, false, new Run())).isEqualTo(ResponseDecoder.COMPLETE);
        final HttpClientResponse response = decoder.response();
        assertThat(response.status()).isEqualTo(404);
        assertThat(response.reason().toString()).isEqualTo("Not Found");
        assertThat(response.header("Content-Type").toString()).isEqualTo("text/plain");
        assertThat(response.headerEquals("CONTENT-TYPE", "TEXT/PLAIN")).isTrue();
        assertThat(response.header("x-folded").toString()).isEqualTo("a    b");
        assertThat(response.header("absent")).isNull();
        assertThat(response.isKeepAlive()).isFalse();
        assertThat(response.headerCount()).isEqualTo(4);
    }

    @Test
    void http10KeepsAliveOnlyWhenAsked()
    {
        final ResponseDecoder decoder = new ResponseDecoder(1024, 16, 64);
        final ByteBuffer in = ByteBuffer.wrap(
            "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(decoder.decode(in, false, new Run())).isEqualTo(ResponseDecoder.COMPLETE);
        assertThat(decoder.response().isKeepAlive()).isTrue();
        assertThat(decoder.response().minorVersion()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "HTTP/2 200 OK\r\n\r\n",
        "HTTP/1.1 20 OK\r\n\r\n",
        "HTTP/1.1 2000 OK\r\n\r\n",
        "HTTP/1.1 099 Odd\r\n\r\n",
        "HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
        "HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\nab",
        "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n",
        "HTTP/1.1 200 OK\r\nBad Name: x\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX: a\u0001b\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 101 Switching Protocols\r\n\r\n",
        "HTTP/1.1 200 OK\r\n Folded: first\r\n\r\n",
    })
    void rejectsMalformedResponses(final String input)
    {
        final Run run = feed(input, 4096, false);
        assertThat(run.events).hasSize(1);
        assertThat(run.events.get(0)).startsWith("error: ");
    }

    @Test
    void rejectsAHeadLargerThanTheLimitBeforeItEnds()
    {
        final Run run = feed("HTTP/1.1 200 OK\r\nX: " + "a".repeat(2000), 100, false);
        assertThat(run.events).containsExactly("error: response head larger than the limit");
    }

    @Test
    void aCloseInTheMiddleOfALengthDelimitedBodyIsAnError()
    {
        final Run run = feed("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", 4096, true);
        assertThat(run.events).containsExactly("error: connection closed in the middle of a response");
    }
}
