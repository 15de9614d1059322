package io.celer.examples.queued;

import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import io.celer.queue.CarrierQueue;
import io.celer.reactor.CallbackMux;
import io.celer.reactor.Reactor;

/**
 * A worker thread of one lane: takes requests from its queue, answers {@code <length>: <line>}, and hands each
 * answer back to the reactor through the callback mux.
 */
final class LaneWorker implements Runnable
{
    private static final byte[] SEPARATOR = {':', ' '};

    private final Reactor reactor;
    private final CarrierQueue<RequestCarrier> requests;
    private final CallbackMux<AnswerCallback> answers;
    private final long workNanos;
    private final Thread thread;
    // Parks up to a quarter of a millisecond when idle: a few wake-ups a millisecond on shared cores.
    private final IdleStrategy idle = new BackoffIdleStrategy(100, 10, 1_000, 250_000);
    private final IdleStrategy whileAnswersFull = new BackoffIdleStrategy(10, 10, 1_000, 100_000);
    private volatile boolean running = true;

    LaneWorker(
        final Reactor reactor,
        final CarrierQueue<RequestCarrier> requests,
        final CallbackMux<AnswerCallback> answers,
        final long workNanos,
        final String name)
    {
        this.reactor = reactor;
        this.requests = requests;
        this.answers = answers;
        this.workNanos = workNanos;
        this.thread = new Thread(this, name);
        thread.setDaemon(true);
    }

    void start()
    {
        thread.start();
    }

    void stop()
    {
        running = false;
        LockSupport.unpark(thread);
    }

    void join()
    {
        try
        {
            thread.join(5_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    Thread thread()
    {
        return thread;
    }

    @Override
    public void run()
    {
        while (running)
        {
            final RequestCarrier request = requests.poll();
            if (request == null)
            {
                idle.idle(0);
                continue;
            }
            idle.reset();
            final boolean answered = answer(request);
            // Released one at a time: a slow request must not keep the carriers of finished ones taken.
            requests.release();
            if (!answered)
            {
                return;
            }
        }
    }

    private boolean answer(final RequestCarrier request)
    {
        if (workNanos > 0)
        {
            work();
        }
        AnswerCallback answer;
        while ((answer = answers.next()) == null)
        {
            // The reactor has not caught up with this worker's answers: let it run, unless it is gone.
            answers.flush();
            if (!running || !reactor.isRunning())
            {
                return false;
            }
            whileAnswersFull.idle();
        }
        whileAnswersFull.reset();
        answer.connectionId = request.connectionId;
        answer.length = format(request.line, request.length, answer.line);
        answers.flush();
        return true;
    }

    /**
     * Stands for a slow task (a database query, say) by sleeping, which leaves the shared cores to others.
     */
    private void work()
    {
        final long deadline = System.nanoTime() + workNanos;
        long left;
        while ((left = deadline - System.nanoTime()) > 0 && running)
        {
            LockSupport.parkNanos(left);
        }
    }

    /**
     * Writes {@code <length>: <line>} into {@code out} without allocating; returns its length.
     */
    static int format(final byte[] line, final int length, final byte[] out)
    {
        int digits = 1;
        for (int n = length; n >= 10; n /= 10)
        {
            digits++;
        }
        int n = length;
        for (int i = digits - 1; i >= 0; i--)
        {
            out[i] = (byte)('0' + n % 10);
            n /= 10;
        }
        out[digits] = SEPARATOR[0];
        out[digits + 1] = SEPARATOR[1];
        System.arraycopy(line, 0, out, digits + 2, length);
        return digits + 2 + length;
    }
}
