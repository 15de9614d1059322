package io.celer.test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * Collects what one logger logs, through {@code java.util.logging}, where {@code System.Logger} goes without
 * another provider; {@link #close()} detaches it.
 */
public final class CapturedLog implements AutoCloseable
{
    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler()
    {
        @Override
        public void publish(final LogRecord record)
        {
            records.add(record);
        }

        @Override
        public void flush()
        {
        }

        @Override
        public void close()
        {
        }
    };

    /**
     * Starts collecting.
     *
     * @param loggerName the logger, by name.
     */
    public CapturedLog(final String loggerName)
    {
        logger = Logger.getLogger(loggerName);
        handler.setLevel(Level.ALL);
        logger.addHandler(handler);
    }

    /**
     * The records whose message contains a text, in order.
     *
     * @param text what to look for.
     * @return the records.
     */
    public List<LogRecord> containing(final String text)
    {
        return records.stream().filter(r -> r.getMessage() != null && r.getMessage().contains(text))
            .collect(Collectors.toList());
    }

    @Override
    public void close()
    {
        logger.removeHandler(handler);
    }
}
