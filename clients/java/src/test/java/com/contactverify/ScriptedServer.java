package com.contactverify;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** A real HTTP server on 127.0.0.1 that answers from a script and records what it was sent. */
final class ScriptedServer implements AutoCloseable {
  record Answer(int status, Map<String, String> headers, String body) {}

  record Seen(String method, String pathAndQuery, Map<String, List<String>> headers, String body) {
    String header(String name) {
      return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0)).findFirst().orElse(null);
    }
  }

  private final HttpServer server;
  private final Deque<Answer> script = new ArrayDeque<>();
  final List<Seen> seen = new CopyOnWriteArrayList<>();

  ScriptedServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String uri = exchange.getRequestURI().getRawPath()
          + (exchange.getRequestURI().getRawQuery() != null ? "?" + exchange.getRequestURI().getRawQuery() : "");
      seen.add(new Seen(exchange.getRequestMethod(), uri, Map.copyOf(exchange.getRequestHeaders()), body));
      Answer answer;
      synchronized (script) {
        answer = script.isEmpty() ? new Answer(500, Map.of(), "{\"error\":{\"code\":\"INTERNAL\",\"message\":\"script is empty\"}}") : script.poll();
      }
      answer.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    });
    server.start();
  }

  ScriptedServer answer(int status, String body) { return answer(status, Map.of(), body); }

  ScriptedServer answer(int status, Map<String, String> headers, String body) {
    synchronized (script) {
      script.add(new Answer(status, headers, body));
    }
    return this;
  }

  String url() { return "http://127.0.0.1:" + server.getAddress().getPort(); }

  @Override
  public void close() { server.stop(0); }
}
