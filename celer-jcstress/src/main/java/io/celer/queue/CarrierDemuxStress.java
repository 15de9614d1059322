package io.celer.queue;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * One producer fills a carrier on each of two lanes, picked by key, and publishes both with one call; lane 0's
 * consumer polls at the same time, and the arbiter polls what is left of both lanes afterwards. Lane 0's
 * consumer sees nothing or its own lane's whole carrier, never lane 1's; nothing is lost.
 */
@JCStressTest
@Description("CarrierDemux: a consumer sees nothing or its lane's whole carrier; every lane gets its own")
@Outcome(id = "-1, 11, 22", expect = Expect.ACCEPTABLE, desc = "lane 0 polled before the publication")
@Outcome(id = "11, -1, 22", expect = Expect.ACCEPTABLE, desc = "lane 0 polled after the publication")
@Outcome(expect = Expect.FORBIDDEN, desc = "a carrier was half-written, on the wrong lane, lost or polled twice")
@State
public class CarrierDemuxStress
{
    private final CarrierDemux<Pair> demux = new CarrierDemux<>(2, 2, Pair::new);

    /**
     * Producer: keys 0 and 1 map to lanes 0 and 1 of two.
     */
    @Actor
    public void producer()
    {
        demux.claim(0).fill(1);
        demux.claim(1).fill(2);
        demux.publish();
    }

    /**
     * Lane 0's consumer.
     *
     * @param r r1: what it saw, -1 for nothing.
     */
    @Actor
    public void consumer0(final III_Result r)
    {
        r.r1 = poll(0);
    }

    /**
     * After both: what is left on lane 0, then on lane 1.
     *
     * @param r r2 and r3.
     */
    @Arbiter
    public void rest(final III_Result r)
    {
        r.r2 = poll(0);
        r.r3 = poll(1);
    }

    private int poll(final int lane)
    {
        return Pair.seenOrNone(demux.lane(lane).poll());
    }
}
