package io.boxoffice.app;

import com.typesafe.config.Config;
import java.time.Duration;

/** A node's own tunables under {@code boxoffice} (conf/boxoffice.conf), read once at start. */
record NodeSettings(
    boolean kubernetesDiscovery,
    Duration startTimeout,
    Duration listenAfterUpWait,
    String httpInterface,
    int httpPort,
    Duration askTimeout,
    Duration adminAskTimeout,
    long maxBodyBytes,
    long maxAdminBodyBytes,
    Duration headerReadTimeout,
    Duration unbindDeadline,
    Duration endedEventRetention,
    Duration metricsSweepInterval,
    Duration shardGaugesDelay,
    Duration shardGaugesInterval,
    Duration stopTimeout) {

  static NodeSettings fromConfig(Config config) {
    Config bo = config.getConfig("boxoffice");
    return new NodeSettings(
        bo.getString("discovery").equals("kubernetes"),
        bo.getDuration("start-timeout"),
        bo.getDuration("listen-after-up-wait"),
        bo.getString("http.interface"),
        bo.getInt("http.port"),
        bo.getDuration("http.ask-timeout"),
        bo.getDuration("http.admin-ask-timeout"),
        bo.getBytes("http.max-body-bytes"),
        bo.getBytes("http.max-admin-body-bytes"),
        bo.getDuration("http.header-read-timeout"),
        bo.getDuration("http.unbind-deadline"),
        bo.getDuration("metrics.ended-event-retention"),
        bo.getDuration("metrics.sweep-interval"),
        bo.getDuration("metrics.shard-gauges-delay"),
        bo.getDuration("metrics.shard-gauges-interval"),
        bo.getDuration("stop-timeout"));
  }
}
