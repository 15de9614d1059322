package io.celer.http.client;

import java.nio.ByteBuffer;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;

import io.celer.http.FuzzInput;
import io.celer.http.internal.ResponseError;
import io.celer.test.Allocations;

/**
 * Fuzzes the client's response decoder: whatever the bytes and however they are split across two reads, no
 * exception escapes, allocation per input stays bounded, and the responses (status, body bytes, streamed or held) and
 * the error, if any, are the same as for the bytes in one piece.
 *
 * <p>{@code mvn verify} fuzzes it for a bounded time (the module sets JAZZER_FUZZ); without that variable it
 * replays the inputs found so far.
 */
class ResponseFuzzTest
{
    private static final int MAX_INPUT = 16 * 1024;

    private final ResponseDecoder whole = new ResponseDecoder(512, 16, 64);
    private final ResponseDecoder pieces = new ResponseDecoder(512, 16, 64);
    private final Digest wholeDigest = new Digest();
    private final Digest piecesDigest = new Digest();
    private final ByteBuffer a = ByteBuffer.allocateDirect(MAX_INPUT);
    private final ByteBuffer b = ByteBuffer.allocateDirect(MAX_INPUT);

    /** Hashes what a decoder hands on, without allocating. */
    private static final class Digest implements ResponseListener
    {
        long hash;
        int responses;
        ResponseError error;

        void reset()
        {
            hash = 17;
            responses = 0;
            error = null;
        }

        void add(final long value)
        {
            hash = hash * 31 + value;
        }

        @Override
        public void response(final HttpClientResponse response)
        {
            responses++;
            add(response.status());
            add(response.isStreamed() ? 1 : 0);
            final ByteBuffer body = response.body();
            for (int i = body.position(); i < body.limit(); i++)
            {
                add(body.get(i));
            }
            add(-1);
        }

        @Override
        public void bodyChunk(final HttpClientResponse response, final ByteBuffer chunk)
        {
            for (int i = chunk.position(); i < chunk.limit(); i++)
            {
                add(chunk.get(i));
            }
            chunk.position(chunk.limit());
        }

        @Override
        public void error(final HttpClientException failure)
        {
            throw new AssertionError("the decoder never fails a request itself");
        }
    }

    ResponseFuzzTest()
    {
        // Loads (and so instruments) every class on the path first: that allocates once, on this thread.
        final byte[] warm = ("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n" +
            "Connection: keep-alive\r\nX: a\r\n b\r\n\r\n1;e=\"v\"\r\nx\r\n0\r\nT: v\r\n\r\n" +
            "HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nyHTTP/1.0 200 OK\r\n\r\nz")
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        a.put(warm).flip();
        wholeDigest.reset();
        run(whole, wholeDigest, a, warm.length, warm.length, 0);
        a.clear();
        Allocations.currentThreadAllocatedBytes(); // its first call loads the management classes
        java.util.Objects.equals(ResponseError.CUT_SHORT, null);
    }

    @FuzzTest(maxDuration = "15s")
    // libFuzzer's dictionary syntax: CR and LF as hex escapes.
    @DictionaryEntries({"HTTP/1.1 ", "HTTP/1.0 ", "200 OK\\x0D\\x0A", "100 Continue\\x0D\\x0A", "204 ", "304 ",
        "\\x0D\\x0A", "\\x0D\\x0A\\x0D\\x0A", "Content-Length: ", "Transfer-Encoding: chunked\\x0D\\x0A",
        "Connection: close\\x0D\\x0A", ";ext=", "0\\x0D\\x0A\\x0D\\x0A", "\\x0D\\x0A ", "Trailer: "})
    void everyInputDecodesTheSameInOneOrTwoReads(final FuzzedDataProvider data)
    {
        final int split = data.consumeInt(0, MAX_INPUT);
        final int headMask = data.consumeInt();
        final int length = FuzzInput.intoBoth(data.consumeRemainingAsBytes(), a, b);
        whole.reset();
        pieces.reset();
        wholeDigest.reset();
        piecesDigest.reset();

        final long before = Allocations.currentThreadAllocatedBytes();
        run(whole, wholeDigest, a, length, length, headMask);
        run(pieces, piecesDigest, b, Math.min(split, length), length, headMask);
        final long allocated = Allocations.currentThreadAllocatedBytes() - before;

        if (wholeDigest.hash != piecesDigest.hash || wholeDigest.responses != piecesDigest.responses ||
            !java.util.Objects.equals(wholeDigest.error, piecesDigest.error))
        {
            throw new AssertionError("one read: " + wholeDigest.responses + " responses, error " + wholeDigest.error +
                "; two reads split at " + split + ": " + piecesDigest.responses + " responses, error " +
                piecesDigest.error);
        }
        // Bounded, not zero: the fuzzer's own bookkeeping allocates on this thread as it finds new paths. The
        // steady state allocates nothing, as the client's zero-garbage test shows.
        if (allocated > 64 * 1024)
        {
            throw new AssertionError("decoding allocated " + allocated + " bytes");
        }
    }

    /** Decodes the bytes as two reads, then a close; records responses and the error in the digest. */
    private static void run(
        final ResponseDecoder decoder, final Digest digest, final ByteBuffer data, final int first, final int length,
        final int headMask)
    {
        data.limit(first).position(0);
        for (int read = 0; read < 2 && digest.error == null; read++)
        {
            if (read == 1)
            {
                data.limit(length);
            }
            while (data.hasRemaining() && digest.error == null)
            {
                final boolean head = (headMask >>> (digest.responses & 31) & 1) == 1;
                final int result = decoder.decode(data, head, digest);
                if (result == ResponseDecoder.COMPLETE)
                {
                    digest.response(decoder.response());
                }
                else if (result == ResponseDecoder.ERROR)
                {
                    digest.error = decoder.error();
                }
                else
                {
                    break;
                }
            }
        }
        if (digest.error == null)
        {
            final int result = decoder.closed(digest);
            if (result == ResponseDecoder.COMPLETE)
            {
                digest.response(decoder.response());
            }
            else if (result == ResponseDecoder.ERROR)
            {
                digest.error = decoder.error();
            }
        }
    }
}
