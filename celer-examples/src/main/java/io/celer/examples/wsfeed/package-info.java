/**
 * The ws-feed demo, the back-pressured reactive WebSocket feed's server: every client is offered a timed feed of
 * numbered, time-stamped text messages, generated in batches by a reactor timer and sent through a
 * {@link io.celer.websocket.outbound.Fanout}, so that a client that reads slowly fills only its own bounded
 * outbox, loses messages (or is closed) by the chosen policy, and leaves the others' feed alone.
 */
package io.celer.examples.wsfeed;
