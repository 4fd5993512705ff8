import com.contactverify.Channel;
import com.contactverify.ContactVerifyClient;
import com.contactverify.ContactVerifyException;
import com.contactverify.DeliveryType;
import com.contactverify.Models;
import com.contactverify.SendCode;
import com.contactverify.TestOutbox;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.time.Instant;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs clients/scenario.json ($CV_SCENARIO) with this library against a running service (see clients/README.md). */
public final class Scenario {
  // Answers are compared as JSON: Instant as the service writes it (ISO-8601).
  private static final ObjectMapper JSON = new ObjectMapper().registerModule(
      new SimpleModule().addSerializer(Instant.class, ToStringSerializer.instance));
  private static final Map<String, String> VARS = new HashMap<>();
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\w+)\\}");

  public static void main(String[] args) throws Exception {
    JsonNode scenario = JSON.readTree(Files.readString(Path.of(System.getenv("CV_SCENARIO"))));
    VARS.put("lang", "java");
    VARS.put("runId", System.getenv("CV_RUN_ID"));
    scenario.get("vars").fields().forEachRemaining(e -> VARS.put(e.getKey(), expand(e.getValue()).asText()));
    String base = System.getenv("CV_BASE_URL");
    Map<String, ContactVerifyClient> clients = Map.of(
        "default", new ContactVerifyClient(base, System.getenv("CV_API_KEY")),
        "badKey", new ContactVerifyClient(base, "cv_live_not_a_real_key_000000000000"),
        "stub", new ContactVerifyClient(System.getenv("CV_STUB_URL"), System.getenv("CV_API_KEY")),
        "test", new ContactVerifyClient(base, System.getenv("CV_TEST_API_KEY")));
    int failed = 0;
    for (JsonNode step : scenario.get("steps")) {
      try {
        run(step, clients, scenario.get("codePattern").asText(), base);
        System.out.println("ok   " + step.get("name").asText());
      } catch (Exception | AssertionError e) {
        failed++;
        System.out.println("FAIL " + step.get("name").asText() + ": " + e.getMessage());
      }
    }
    System.out.println((scenario.get("steps").size() - failed) + " passed, " + failed + " failed");
    System.exit(failed == 0 ? 0 : 1);
  }

  private static JsonNode expand(JsonNode node) {
    if (node.isTextual()) {
      Matcher m = PLACEHOLDER.matcher(node.asText());
      StringBuilder out = new StringBuilder();
      while (m.find()) m.appendReplacement(out, Matcher.quoteReplacement(VARS.getOrDefault(m.group(1), m.group(0))));
      m.appendTail(out);
      return TextNode.valueOf(out.toString());
    }
    if (node.isArray()) {
      ArrayNode out = JSON.createArrayNode();
      node.forEach(e -> out.add(expand(e)));
      return out;
    }
    if (node.isObject()) {
      ObjectNode out = JSON.createObjectNode();
      node.fields().forEachRemaining(e -> out.set(e.getKey(), expand(e.getValue())));
      return out;
    }
    return node;
  }

  private static String mismatch(JsonNode expected, JsonNode actual, String at) {
    if (expected.isArray()) {
      if (actual == null || !actual.isArray() || actual.size() != expected.size())
        return at + ": expected a list of " + expected.size() + ", got " + actual;
      for (int i = 0; i < expected.size(); i++) {
        String m = mismatch(expected.get(i), actual.get(i), at + "[" + i + "]");
        if (m != null) return m;
      }
      return null;
    }
    if (expected.isObject()) {
      if (actual == null || !actual.isObject()) return at + ": expected an object, got " + actual;
      for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        String m = mismatch(e.getValue(), actual.get(e.getKey()), at + "." + e.getKey());
        if (m != null) return m;
      }
      return null;
    }
    boolean same = actual != null && (expected.isNumber() && actual.isNumber()
        ? expected.asDouble() == actual.asDouble() : expected.equals(actual));
    return same ? null : at + ": expected " + expected + ", got " + actual;
  }

  private static JsonNode pick(JsonNode data, String path) {
    for (String key : path.replaceAll("\\[(\\d+)\\]", ".$1").split("\\.")) {
      if (key.isEmpty()) continue;
      if (data == null) return null;
      data = data.isArray() ? data.get(Integer.parseInt(key)) : data.get(key);
    }
    return data;
  }

  private static String text(JsonNode args, String name) {
    return args.has(name) ? args.get(name).asText() : null;
  }

  private static void run(JsonNode step, Map<String, ContactVerifyClient> clients, String pattern, String base) throws Exception {
    ContactVerifyClient client = clients.get(step.has("client") ? step.get("client").asText() : "default");
    JsonNode args = expand(step.has("args") ? step.get("args") : JSON.createObjectNode());
    JsonNode expect = step.has("expect") ? step.get("expect") : JSON.createObjectNode();
    if (step.has("retries")) client = client.withMaxRetries(step.get("retries").asInt());
    Object data;
    try {
      switch (step.get("op").asText()) {
        case "health" -> data = client.health();
        case "sendCode" -> {
          SendCode request;
          if (args.has("channels")) {
            request = SendCode.dual(Channel.valueOf(args.get("channels").get(0).asText()), Channel.valueOf(args.get("channels").get(1).asText()));
          } else {
            request = SendCode.on(Channel.valueOf(text(args, "channel")));
          }
          request = request.withEmail(text(args, "email")).withPhone(text(args, "phone")).country(text(args, "country"))
              .deliveryType(args.has("deliveryType") ? DeliveryType.valueOf(text(args, "deliveryType")) : null)
              .purpose(text(args, "purpose")).customMessage(text(args, "customMessage")).locale(text(args, "locale"))
              .idempotencyKey(text(args, "idempotencyKey"))
              .link(args.has("link") ? new Models.SendLink(text(args.get("link"), "redirectUrl")) : null)
              .fallback(args.has("fallback") ? Channel.valueOf(text(args, "fallback")) : null);
          data = args.has("channels") ? client.sendCodeDual(request) : client.sendCode(request);
        }
        case "verifyCode" -> data = args.has("otpCode")
            ? client.verifyCode(text(args, "requestId"), text(args, "otpCode")) : client.verifyCode(text(args, "requestId"));
        case "getVerification" -> data = client.getVerification(text(args, "requestId"));
        case "cancelVerification" -> data = client.cancelVerification(text(args, "requestId"));
        case "latestOutboxCode" -> data = Map.of("code",
            new TestOutbox(base, System.getenv("CV_ADMIN_TOKEN")).latestOutboxCode(text(args, "to")));
        case "outboxCode" -> data = outboxCode(base, text(args, "to"), pattern);
        default -> throw new IllegalArgumentException("unknown op " + step.get("op"));
      }
    } catch (ContactVerifyException e) {
      JsonNode want = expect.get("error");
      if (want == null) throw e;
      if (e.status() != want.get("status").asInt() || !e.code().equals(want.get("code").asText()))
        throw new AssertionError("expected " + want.get("status") + " " + want.get("code") + ", got " + e.status() + " " + e.code());
      if (want.has("retryAfterAtLeast") && e.retryAfter().map(d -> d.getSeconds()).orElse(0L) < want.get("retryAfterAtLeast").asInt())
        throw new AssertionError("expected retryAfter >= " + want.get("retryAfterAtLeast"));
      return;
    }
    if (expect.has("error")) throw new AssertionError("expected " + expect.get("error").get("code") + ", got an answer");
    JsonNode answer = JSON.valueToTree(data);
    if (expect.has("ok")) {
      String m = mismatch(expand(expect.get("ok")), answer, "data");
      if (m != null) throw new AssertionError(m);
    }
    if (expect.has("present")) {
      for (JsonNode path : expect.get("present")) {
        JsonNode value = pick(answer, path.asText());
        if (value == null || value.isNull()) throw new AssertionError("data." + path.asText() + " is missing");
      }
    }
    if (step.has("save")) step.get("save").fields().forEachRemaining(e -> VARS.put(e.getKey(), pick(answer, e.getValue().asText()).asText()));
  }

  private static Map<String, String> outboxCode(String base, String to, String pattern) throws Exception {
    HttpResponse<String> res = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(base + "/v1/admin/outbox?to=" + URLEncoder.encode(to, StandardCharsets.UTF_8)))
            .header("Authorization", "Bearer " + System.getenv("CV_ADMIN_TOKEN")).build(),
        HttpResponse.BodyHandlers.ofString());
    JsonNode items = JSON.readTree(res.body()).get("data");
    Matcher m = Pattern.compile(pattern).matcher(items.size() > 0 ? items.get(0).get("text").asText() : "");
    if (!m.find()) throw new AssertionError("no code in the outbox for " + to);
    return Map.of("code", m.group(1));
  }
}
