package io.boxoffice.edge;

import java.util.Map;

/** A contract error: status, code and a sentence, plus extra fields for the body (e.g. {@code seats}). */
public final class ApiError extends RuntimeException {
  private final int status;
  private final String code;
  private final Map<String, Object> extra;

  public ApiError(int status, String code, String message) {
    this(status, code, message, Map.of());
  }

  public ApiError(int status, String code, String message, Map<String, Object> extra) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }

  public int status() { return status; }
  public String code() { return code; }
  public Map<String, Object> extra() { return extra; }

  public static ApiError badRequest(String message) {
    return new ApiError(400, "bad_request", message);
  }
}
