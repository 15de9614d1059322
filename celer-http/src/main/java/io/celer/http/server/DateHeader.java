package io.celer.http.server;

import io.celer.reactor.Reactor;
import io.celer.reactor.TimerCallback;

/**
 * The {@code Date} header line (RFC 9110, 6.6.1), formatted once a second by a reactor timer instead of per
 * response; formatting by hand because the JDK's formatters allocate.
 */
final class DateHeader implements TimerCallback
{
    private static final byte[] DAYS = "ThuFriSatSunMonTueWed".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] MONTHS =
        "JanFebMarAprMayJunJulAugSepOctNovDec".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final int LENGTH = "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n".length();

    private final byte[] line = new byte[LENGTH];
    private Reactor reactor;
    private long timerId = -1;
    private boolean stopped;

    DateHeader()
    {
        format(System.currentTimeMillis());
    }

    /** Starts refreshing on the reactor thread. */
    void start(final Reactor reactor)
    {
        this.reactor = reactor;
        stopped = false;
        format(System.currentTimeMillis());
        timerId = reactor.schedule(1000, this);
    }

    /** Stops refreshing; on the reactor thread. */
    void stop()
    {
        stopped = true;
        if (timerId != -1)
        {
            reactor.cancelTimer(timerId);
            timerId = -1;
        }
    }

    /** The header line, CRLF included; the bytes change each second. */
    byte[] line()
    {
        return line;
    }

    @Override
    public void onTimer(final long id, final long nowMillis)
    {
        if (stopped)
        {
            return;
        }
        final long wall = System.currentTimeMillis();
        format(wall);
        timerId = reactor.schedule(1000 - wall % 1000, this);
    }

    void format(final long epochMillis)
    {
        final long seconds = Math.floorDiv(epochMillis, 1000);
        final long days = Math.floorDiv(seconds, 86_400);
        final int secondOfDay = (int)(seconds - days * 86_400);
        // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
        final long z = days + 719_468;
        final long era = Math.floorDiv(z, 146_097);
        final long doe = z - era * 146_097;
        final long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        final long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        final long mp = (5 * doy + 2) / 153;
        final int day = (int)(doy - (153 * mp + 2) / 5 + 1);
        final int month = (int)(mp < 10 ? mp + 3 : mp - 9);
        final long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
        int i = 0;
        i = put(i, "Date: ");
        final int weekday = (int)Math.floorMod(days, 7);
        System.arraycopy(DAYS, weekday * 3, line, i, 3);
        i += 3;
        i = put(i, ", ");
        i = two(i, day);
        line[i++] = ' ';
        System.arraycopy(MONTHS, (month - 1) * 3, line, i, 3);
        i += 3;
        line[i++] = ' ';
        i = two(i, (int)(year / 100));
        i = two(i, (int)(year % 100));
        line[i++] = ' ';
        i = two(i, secondOfDay / 3600);
        line[i++] = ':';
        i = two(i, secondOfDay / 60 % 60);
        line[i++] = ':';
        i = two(i, secondOfDay % 60);
        put(i, " GMT\r\n");
    }

    private int put(final int at, final String text)
    {
        for (int k = 0; k < text.length(); k++)
        {
            line[at + k] = (byte)text.charAt(k);
        }
        return at + text.length();
    }

    private int two(final int at, final int value)
    {
        line[at] = (byte)('0' + value / 10);
        line[at + 1] = (byte)('0' + value % 10);
        return at + 2;
    }
}
