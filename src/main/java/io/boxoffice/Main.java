package io.boxoffice;

import com.typesafe.config.ConfigFactory;
import java.time.Clock;

/** {@code java -jar boxoffice.jar}: one node, every role, embedded database unless configured otherwise. */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    Node.start(ConfigFactory.load(), new Node.Options(Clock.systemUTC(), null));
  }
}
