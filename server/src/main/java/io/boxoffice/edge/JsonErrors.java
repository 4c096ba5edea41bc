package io.boxoffice.edge;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import java.io.IOException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A plain sentence for a request body Jackson could not read: which field (as the client named
 * it) and what is wrong with it, never Jackson's own message, which names our classes, their
 * packages and Jackson's settings ({@code AccountRoutes$Credentials}, {@code CoercionConfig}).
 * A field name is echoed only when it is a short plain word; anything else is "a field".
 */
public final class JsonErrors {
  private static final Pattern DUPLICATE = Pattern.compile("Duplicate field '([^']*)'");
  private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z0-9_-]{1,40}");

  private JsonErrors() {}

  /** The sentence for {@code e}, always starting with what is wrong with the body. */
  public static String describe(IOException e) {
    if (e instanceof StreamConstraintsException s) {
      String m = String.valueOf(s.getOriginalMessage());
      if (m.contains("nesting depth")) return "the JSON is nested too deeply";
      if (m.contains("Number value length") || m.contains("number")) return "a number in the JSON is too long";
      if (m.contains("String value length")) return "a string in the JSON is too long";
      return "the JSON is too large or too deep";
    }
    if (e instanceof JsonEOFException) return "the JSON ends too early";
    if (e instanceof InputCoercionException || e.getCause() instanceof InputCoercionException) {
      return "a number in the JSON is out of range" + at(e);
    }
    if (e instanceof UnrecognizedPropertyException u) return "unknown field " + quoted(u.getPropertyName());
    if (e instanceof ValueInstantiationException) return "the JSON does not fit this call" + at(e);
    if (e instanceof InvalidFormatException) return "a value in the JSON has the wrong type or format" + at(e);
    if (e instanceof MismatchedInputException m) {
      if (isDuplicate(m)) return "duplicate field " + quoted(duplicateName(m));
      String original = String.valueOf(m.getOriginalMessage());
      if (original.startsWith("Trailing token")) return "there is more after the JSON value";
      if (original.contains("`null`") && !m.getPath().isEmpty()) return "a field is missing or null" + at(e);
      if (m.getPath().isEmpty()) return "the JSON must be an object of the fields this call takes";
      return "a value in the JSON has the wrong type" + at(e);
    }
    if (e instanceof JsonProcessingException p) {
      String original = String.valueOf(p.getOriginalMessage());
      Matcher dup = DUPLICATE.matcher(original);
      if (dup.find()) return "duplicate field " + quoted(dup.group(1));
      if (e instanceof JsonMappingException) return "the JSON does not fit this call" + at(e);
      JsonLocation where = p.getLocation();
      if (where != null && where.getLineNr() > 0) {
        return "malformed JSON at line " + where.getLineNr() + ", column " + where.getColumnNr();
      }
    }
    return "malformed JSON";
  }

  /**
   * {@code message} unless it names code (a class, a package, Jackson's settings), whoever wrote
   * it: then a plain sentence for {@code status}. The last guard before an error leaves the node.
   */
  public static String plain(int status, String message) {
    if (message == null || message.isBlank()) return generic(status);
    return CODE.matcher(message).find() ? generic(status) : message;
  }

  /** A '$' (nested classes), a package ({@code io.boxoffice.}, {@code java.}), Jackson or its settings. */
  private static final Pattern CODE = Pattern.compile(
      "\\$|\\b(io\\.boxoffice|com\\.fasterxml|javax?\\.[a-z]|scala\\.|org\\.apache)|[Jj]ackson|Coercion|Exception\\b|`");

  private static String generic(int status) {
    return switch (status) {
      case 400 -> "the request is not valid for this call";
      case 401 -> "sign in first";
      case 403 -> "not allowed";
      case 404 -> "no such resource";
      case 409 -> "the request conflicts with the current state";
      case 413 -> "the request is too large";
      case 415 -> "the request body must be application/json";
      case 429 -> "too many requests, slow down";
      default -> status >= 500 ? "the service failed to answer, try again" : "the request was refused";
    };
  }

  private static boolean isDuplicate(MismatchedInputException m) {
    String original = String.valueOf(m.getOriginalMessage());
    return original.contains("Duplicate") || original.contains("duplicate");
  }

  private static String duplicateName(MismatchedInputException m) {
    Matcher dup = DUPLICATE.matcher(String.valueOf(m.getOriginalMessage()));
    if (dup.find()) return dup.group(1);
    List<JsonMappingException.Reference> path = m.getPath();
    return path.isEmpty() ? null : path.get(path.size() - 1).getFieldName();
  }

  /** " in field \"best.quantity\"", or nothing when the path is empty or not plain. */
  private static String at(IOException e) {
    if (!(e instanceof JsonMappingException m) || m.getPath().isEmpty()) return "";
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference r : m.getPath()) {
      if (r.getFieldName() != null) {
        if (!PLAIN_NAME.matcher(r.getFieldName()).matches()) return "";
        if (path.length() > 0) path.append('.');
        path.append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        path.append('[').append(r.getIndex()).append(']');
      }
    }
    return path.length() == 0 ? "" : " (field \"" + path + "\")";
  }

  private static String quoted(String name) {
    return name != null && PLAIN_NAME.matcher(name).matches() ? "\"" + name + "\"" : "(a field)";
  }
}
