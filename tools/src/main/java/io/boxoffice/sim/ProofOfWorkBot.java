package io.boxoffice.sim;

/**
 * Solves the join's proof of work with every core of the machine (the contract's puzzle: a
 * nonce whose SHA-256 of {@code challenge:nonce} begins with {@code bits} zero bits), where a
 * fan's page uses one. What it buys is in the report: the time each join's puzzle took bots and
 * humans, and the bots' share of the places of the lobby (a lottery: nothing) and of the later
 * arrivals (a line in arrival order: a head start of the time saved).
 */
final class ProofOfWorkBot extends BotStrategy {
  ProofOfWorkBot() {
    super("proof-of-work", (shape, group) -> shape.fullCpuPow = true);
  }
}
