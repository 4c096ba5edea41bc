package io.boxoffice.common;

/** Marker for every message, event and snapshot that crosses a node or reaches the journal; bound to jackson-cbor. */
public interface CborSerializable {}
