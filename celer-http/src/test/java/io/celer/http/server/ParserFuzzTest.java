package io.celer.http.server;

import java.nio.ByteBuffer;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;

import io.celer.http.FuzzInput;
import io.celer.http.HttpMethod;
import io.celer.http.HttpStatus;
import io.celer.http.internal.Ascii;
import io.celer.http.internal.ChunkedDecoder;
import io.celer.http.internal.HeadFields;
import io.celer.test.Allocations;

/**
 * Fuzzes the request head parser and the chunked decoder (one fuzz test, as Jazzer fuzzes one per run):
 * whatever the bytes and however they are split across reads, no exception escapes, nothing is allocated per
 * input, the answer is the same as for the bytes in one piece, and every rejection is a status a server sends.
 *
 * <p>{@code mvn verify} fuzzes it for a bounded time (the module sets JAZZER_FUZZ); without that variable it
 * replays the inputs found so far.
 */
class ParserFuzzTest
{
    private static final int MAX_INPUT = 16 * 1024;
    private final HttpRequest whole = new HttpRequest(32);
    private final HttpRequest pieces = new HttpRequest(32);
    private final ByteBuffer a = ByteBuffer.allocateDirect(MAX_INPUT);
    private final ByteBuffer b = ByteBuffer.allocateDirect(MAX_INPUT);
    private final ChunkedDecoder decoder = new ChunkedDecoder(256, 512);

    ParserFuzzTest()
    {
        // Loads (and so instruments) every class on the path first: that allocates once, on this thread.
        final byte[] warm = ("POST http://h/p?q HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n" +
            "Connection: close\r\nExpect: 100-continue\r\nUpgrade: x\r\nX: a\r\n b\r\n\r\n")
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        a.put(warm);
        new RequestHeadParser(1024, 1024, true).parse(a, 0, warm.length, whole);
        HttpMethod.of(a, 0, 4);
        HttpStatus.reason(HttpStatus.OK);
        a.clear();
    }

    @FuzzTest(maxDuration = "20s")
    // libFuzzer's dictionary syntax: CR and LF as hex escapes.
    @DictionaryEntries({"GET ", "POST ", " HTTP/1.1\\x0D\\x0A", " HTTP/1.0\\x0D\\x0A", "\\x0D\\x0A",
        "\\x0D\\x0A\\x0D\\x0A", "Host: x\\x0D\\x0A", "Content-Length: ", "Transfer-Encoding: ", "chunked",
        "gzip, chunked", "Connection: close", "Expect: 100-continue", "http://", ";ext=", "0\\x0D\\x0A\\x0D\\x0A",
        "\\x0D\\x0A ", "Upgrade: "})
    void everyInputGetsAStatusOrARequest(final FuzzedDataProvider data)
    {
        final int split = data.consumeInt(0, MAX_INPUT);
        final int limits = data.consumeInt(16, 2048);
        final boolean obsFold = data.consumeBoolean();
        final int length = FuzzInput.intoBoth(data.consumeRemainingAsBytes(), a, b);

        final RequestHeadParser oneRead = new RequestHeadParser(limits, limits * 2, obsFold);
        final RequestHeadParser twoReads = new RequestHeadParser(limits, limits * 2, obsFold);
        RequestHeadParser.reset(whole);
        RequestHeadParser.reset(pieces);
        final long before = Allocations.currentThreadAllocatedBytes();
        final int status = oneRead.parse(a, 0, length, whole);
        int statusInPieces = twoReads.parse(b, 0, Math.min(split, length), pieces);
        if (statusInPieces == RequestHeadParser.NEED_MORE)
        {
            statusInPieces = twoReads.parse(b, 0, length, pieces);
        }
        checkStatus(status);
        if (status != statusInPieces)
        {
            throw new AssertionError("one read says " + status + ", two reads say " + statusInPieces);
        }
        if (status == RequestHeadParser.DONE)
        {
            whole.attach(a, 0);
            checkRequest(whole, RequestHeadParser.headLength(whole), length);
        }

        final int chunkedStatus = decodeChunked(length, split);
        if (chunkedStatus != 0 && chunkedStatus != 400 && chunkedStatus != 431)
        {
            throw new AssertionError("chunked decoder answered " + chunkedStatus);
        }
        final long allocated = Allocations.currentThreadAllocatedBytes() - before;
        if (allocated > 64 * 1024)
        {
            throw new AssertionError("parsing one input allocated " + allocated + " bytes");
        }
    }

    private int decodeChunked(final int length, final int split)
    {
        decoder.reset();
        final int status = decodeUpTo(0, Math.min(split, length));
        return status != 0 || decoder.isDone() ? status : decodeUpTo(Math.min(split, length), length);
    }

    /** Decodes what one read brought, taking data bytes as the server does. */
    private int decodeUpTo(final int from, final int end)
    {
        int p = from;
        while (p < end)
        {
            p = decoder.decode(a, p, end);
            if (decoder.status() != 0 || decoder.isDone())
            {
                return decoder.status();
            }
            final long remaining = decoder.dataRemaining();
            if (remaining > 0 && p < end)
            {
                final int n = (int)Math.min(remaining, end - p);
                decoder.dataTaken(n);
                p += n;
            }
        }
        return 0;
    }

    private static void checkStatus(final int status)
    {
        switch (status)
        {
            case RequestHeadParser.NEED_MORE:
            case RequestHeadParser.DONE:
            case 400:
            case 414:
            case 417:
            case 431:
            case 501:
            case 505:
                return;
            default:
                throw new AssertionError("unexpected status " + status);
        }
    }

    private static void checkRequest(final HttpRequest request, final int headLength, final int length)
    {
        final HeadFields head = request.head;
        if (headLength > length || request.pathStart > request.pathEnd || request.pathEnd > headLength ||
            head.minorVersion() < 0 || head.minorVersion() > 1 || (head.isChunked() && head.contentLength() >= 0))
        {
            throw new AssertionError("inconsistent request " + request);
        }
        for (int i = 0; i < head.count(); i++)
        {
            if (head.nameStart(i) >= head.nameEnd(i) || head.valueStart(i) > head.valueEnd(i) ||
                head.valueEnd(i) > headLength)
            {
                throw new AssertionError("inconsistent field " + i);
            }
            for (int k = head.nameStart(i); k < head.nameEnd(i); k++)
            {
                if (!Ascii.isTchar(head.buffer().get(k)))
                {
                    throw new AssertionError("field name with a non-token byte");
                }
            }
        }
    }
}
