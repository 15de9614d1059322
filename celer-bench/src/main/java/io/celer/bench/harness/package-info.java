/**
 * What every benchmark uses: peer processes and their launching ({@link io.celer.bench.harness.PeerLauncher},
 * {@link io.celer.bench.harness.ProcessPair}, {@link io.celer.bench.harness.CpuPlan} for pinning), rounds and
 * the progress bar ({@link io.celer.bench.harness.Rounds}), the options ({@link
 * io.celer.bench.harness.CommonOptions}), and one result model ({@link io.celer.bench.harness.Report} around a
 * {@link io.celer.bench.harness.Result}) that {@link io.celer.bench.harness.ResultFiles} alone writes as JSON,
 * Markdown and PNG.
 *
 * <p>A new benchmark is a package of three parts, copying none of another's:
 * <ol>
 *   <li>a peer list: an enum implementing {@link io.celer.bench.harness.Peer}, each peer naming the main classes
 *       of its server and client (under {@code io.celer.bench.peer});</li>
 *   <li>a command: a picocli {@code @Command} with {@code @Mixin CommonOptions}, its own options, and a
 *       subcommand entry in {@code Bench};</li>
 *   <li>a run: opens a {@link io.celer.bench.harness.RunContext}, runs {@link io.celer.bench.harness.Rounds} of
 *       {@link io.celer.bench.harness.ProcessPair}s, turns each peer's median round into an entry record
 *       (with {@link io.celer.bench.harness.SideFacts} inline), fills a {@link io.celer.bench.harness.Report}
 *       (title, table, facts, plot) and hands it to {@link io.celer.bench.harness.RunContext#finish}.</li>
 * </ol>
 * The harness imports no benchmark package; the benchmark packages import the harness and never each other.
 */
package io.celer.bench.harness;
