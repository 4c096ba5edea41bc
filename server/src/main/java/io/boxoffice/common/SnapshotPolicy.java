package io.boxoffice.common;

import com.typesafe.config.Config;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/**
 * How often an entity kind writes a snapshot (every {@code every} events) and how many it keeps,
 * read from {@code boxoffice.snapshots.<kind>}: a snapshot bounds the replay of a restart or a
 * move, and costs a write of the whole state.
 */
public record SnapshotPolicy(int every, int keep) {
  public SnapshotPolicy {
    if (every < 1 || keep < 1) throw new IllegalArgumentException("snapshot every and keep must be at least 1");
  }

  public static SnapshotPolicy fromConfig(Config snapshots, String kind) {
    Config c = snapshots.getConfig(kind);
    return new SnapshotPolicy(c.getInt("every"), c.getInt("keep"));
  }

  public RetentionCriteria criteria() {
    return RetentionCriteria.snapshotEvery(every, keep);
  }
}
