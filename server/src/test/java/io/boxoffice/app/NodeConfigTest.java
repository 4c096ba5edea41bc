package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Seed nodes: a node forms a new cluster only when told to; otherwise it joins the running one. */
class NodeConfigTest {
  static Config node(int port, String seeds, boolean formCluster) {
    return ConfigFactory.parseString("boxoffice.seed-nodes = \"" + seeds + "\"\n"
            + "boxoffice.form-cluster = " + formCluster + "\n"
            + "pekko.remote.artery.canonical.hostname = \"10.0.0.1\"\n"
            + "pekko.remote.artery.canonical.port = " + port + "\n")
        .withFallback(ConfigFactory.load());
  }

  static List<String> seeds(Config config) {
    return NodeConfig.joinSeedNodes(NodeConfig.resolve(config));
  }

  @Test
  void theActorSystemIsNotGivenTheSeedsSoThatTheNodeJoinsOnlyOnceStarted() {
    Config resolved = NodeConfig.resolve(node(25520, "10.0.0.1:25520,10.0.0.2:25520", false));
    assertEquals(List.of(), resolved.getStringList("pekko.cluster.seed-nodes"));
    assertEquals(2, NodeConfig.joinSeedNodes(resolved).size());
  }

  @Test
  void seedsGivenToPekkoDirectlyAreJoinedTooButLater() {
    Config resolved = NodeConfig.resolve(ConfigFactory.parseString(
        "pekko.cluster.seed-nodes = [\"pekko://boxoffice@10.0.0.9:25520\"]").withFallback(ConfigFactory.load()));
    assertEquals(List.of(), resolved.getStringList("pekko.cluster.seed-nodes"));
    assertEquals(List.of("pekko://boxoffice@10.0.0.9:25520"), NodeConfig.joinSeedNodes(resolved));
  }

  @Test
  void aRestartedFirstSeedListsItselfLastSoThatItOnlyJoins() {
    assertEquals(List.of("pekko://boxoffice@10.0.0.2:25520", "pekko://boxoffice@10.0.0.3:25520", "pekko://boxoffice@10.0.0.1:25520"),
        seeds(node(25520, "10.0.0.1:25520, 10.0.0.2:25520,10.0.0.3:25520", false)));
  }

  @Test
  void theFirstStartOfTheFirstSeedMayFormTheCluster() {
    assertEquals(List.of("pekko://boxoffice@10.0.0.1:25520", "pekko://boxoffice@10.0.0.2:25520"),
        seeds(node(25520, "10.0.0.1:25520,10.0.0.2:25520", true)));
  }

  @Test
  void otherNodesKeepTheListAsGiven() {
    assertEquals(List.of("pekko://boxoffice@10.0.0.1:25520", "pekko://boxoffice@10.0.0.2:25520"),
        seeds(node(25521, "10.0.0.1:25520,10.0.0.2:25520", false)));
  }
}
