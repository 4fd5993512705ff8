package com.contactverify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The models are written by hand and held to the service's OpenAPI document here: a field, an
 * enum value or an error code the document adds (or drops) fails this test until the library
 * follows. The document is $CV_OPENAPI, by default the repository's clients/openapi.json.
 */
class DriftTest {
  private static JsonNode schemas;

  /** Each record and the document's schema it mirrors. */
  private static final Map<String, Class<?>> MODELS = new LinkedHashMap<>();
  /** Each enum and the document's schema it mirrors. */
  private static final Map<String, Class<? extends Enum<?>>> ENUMS = new LinkedHashMap<>();

  static {
    MODELS.put("SendCodeEntry", Models.SendEntry.class);
    MODELS.put("SendCodeEntryError", Models.EntryError.class);
    MODELS.put("Risk", Models.Risk.class);
    MODELS.put("RiskSignal", Models.RiskSignal.class);
    MODELS.put("VerifyCodeResult", Models.VerifyResult.class);
    MODELS.put("ErrorDetail", Models.ErrorDetail.class);
    MODELS.put("Health", Models.Health.class);
    MODELS.put("ChannelHealth", Models.ChannelHealth.class);
    MODELS.put("ProviderHealth", Models.ProviderHealth.class);
    MODELS.put("PumpingBreakerCount", Models.PumpingBreakerCount.class);
    MODELS.put("InstancesHealth", Models.InstancesHealth.class);
    MODELS.put("CodeSecretRotation", Models.CodeSecretRotation.class);
    MODELS.put("OutboxMessage", Models.OutboxMessage.class);
    MODELS.put("Verification", Models.Verification.class);
    MODELS.put("VerificationDelivery", Models.VerificationDelivery.class);
    MODELS.put("SendLink", Models.SendLink.class);
    MODELS.put("SilentFallback", Models.SilentFallback.class);
    ENUMS.put("Channel", Channel.class);
    ENUMS.put("DeliveryType", DeliveryType.class);
    ENUMS.put("VerificationStatus", VerificationStatus.class);
    ENUMS.put("SendCodeEntryStatus", EntryStatus.class);
    ENUMS.put("RiskLevel", RiskLevel.class);
    ENUMS.put("HealthStatus", HealthStatus.class);
    ENUMS.put("ServiceState", ServiceState.class);
    ENUMS.put("ProviderState", ProviderState.class);
    ENUMS.put("LiveCodes", LiveCodes.class);
    ENUMS.put("ErrorCode", ErrorCode.class);
    ENUMS.put("VerificationMethod", VerificationMethod.class);
    ENUMS.put("DeliveryState", DeliveryState.class);
    ENUMS.put("FallbackReason", FallbackReason.class);
  }

  /** Values of the library's own, not the service's. */
  private static final Set<String> LIBRARY_ONLY = Set.of("ErrorCode.NETWORK_ERROR");
  /** Other names of phone the document accepts that SendCode does not offer, on purpose. */
  private static final Set<String> SEND_ALIASES = Set.of("whatsappNumber", "phoneNumber");

  private final List<String> problems = new ArrayList<>();

  @BeforeAll
  static void load() throws Exception {
    String path = System.getenv().getOrDefault("CV_OPENAPI", "../openapi.json");
    schemas = new ObjectMapper().readTree(Files.readString(Path.of(path))).path("components").path("schemas");
    assertNotNull(schemas.get("SendCodeEntry"), "the OpenAPI document (CV_OPENAPI) has component schemas");
  }

  private static Set<String> names(Iterator<String> it) {
    Set<String> out = new TreeSet<>();
    it.forEachRemaining(out::add);
    return out;
  }

  /** A record's components against a schema's properties, both ways, and the type of each. */
  private void checkRecord(String at, JsonNode schema, Class<?> type) {
    if (!type.isRecord()) {
      problems.add(at + " is an object in the document, " + type.getName() + " in the library");
      return;
    }
    Map<String, RecordComponent> components = Arrays.stream(type.getRecordComponents())
        .collect(Collectors.toMap(RecordComponent::getName, c -> c));
    JsonNode properties = schema.path("properties");
    for (String prop : names(properties.fieldNames())) {
      RecordComponent c = components.get(prop);
      if (c == null) problems.add(at + "." + prop + " is in the document but not in " + type.getSimpleName());
      else checkType(at + "." + prop, properties.get(prop), c.getGenericType());
    }
    for (String name : new TreeSet<>(components.keySet())) {
      if (!properties.has(name)) problems.add(at + "." + name + " (of " + type.getSimpleName() + ") is not in the document");
    }
  }

  private static Class<?> raw(Type type) {
    return type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
  }

  private void checkType(String at, JsonNode schema, Type type) {
    if (schema.has("$ref")) {
      String ref = schema.get("$ref").asText().replace("#/components/schemas/", "");
      JsonNode target = schemas.get(ref);
      if (target.has("enum") && ENUMS.get(ref) != type) {
        problems.add(at + " is the enum " + ref + " in the document, " + type.getTypeName() + " in the library");
      } else if (target.has("properties") && MODELS.get(ref) != type) {
        problems.add(at + " is the schema " + ref + " in the document, " + type.getTypeName() + " in the library");
      }
    } else if ("date-time".equals(schema.path("format").asText()) && type != Instant.class) {
      problems.add(at + " is a date-time in the document, " + type.getTypeName() + " in the library");
    } else if (schema.has("items")) {
      if (raw(type) != List.class) problems.add(at + " is an array in the document, " + type.getTypeName() + " in the library");
      else checkType(at + "[]", schema.get("items"), ((ParameterizedType) type).getActualTypeArguments()[0]);
    } else if (schema.path("additionalProperties").isObject()) {
      if (raw(type) != Map.class) problems.add(at + " is a map in the document, " + type.getTypeName() + " in the library");
      else checkType(at + "{}", schema.get("additionalProperties"), ((ParameterizedType) type).getActualTypeArguments()[1]);
    } else if (schema.has("properties")) {
      checkRecord(at, schema, raw(type));
    }
  }

  private void assertNoProblems() {
    assertEquals("", String.join("\n", problems), problems.size() + " difference(s) with the document");
  }

  @Test
  void theModelsMatchTheDocument() {
    MODELS.forEach((name, type) -> {
      JsonNode schema = schemas.get(name);
      if (schema == null) problems.add("the document has no schema " + name);
      else checkRecord(name, schema, type);
    });
    assertNoProblems();
  }

  @Test
  void theEnumsAndErrorCodesMatchTheDocument() throws Exception {
    for (Map.Entry<String, Class<? extends Enum<?>>> e : ENUMS.entrySet()) {
      Set<String> doc = new TreeSet<>();
      schemas.get(e.getKey()).get("enum").forEach(v -> doc.add(v.asText()));
      Set<String> lib = new TreeSet<>();
      Method value = e.getValue().getMethod("value");
      for (Enum<?> constant : e.getValue().getEnumConstants()) {
        String v = (String) value.invoke(constant);
        if (!LIBRARY_ONLY.contains(e.getKey() + "." + v)) lib.add(v);
      }
      for (String v : doc) if (!lib.contains(v)) problems.add(e.getKey() + " \"" + v + "\" is in the document but not in " + e.getValue().getSimpleName());
      for (String v : lib) if (!doc.contains(v)) problems.add(e.getValue().getSimpleName() + " \"" + v + "\" is not in the document (" + e.getKey() + ")");
    }
    assertNoProblems();
  }

  /** SendCode offers every member of SendCodeRequest, as a method of that name or with + its name. */
  @Test
  void theSendBuilderOffersEveryMemberOfTheRequest() {
    Map<String, Method> methods = new LinkedHashMap<>();
    for (Method m : SendCode.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers()) || m.getDeclaringClass() != SendCode.class || m.getName().equals("toString")) continue;
      String name = m.getName().startsWith("with") ? Character.toLowerCase(m.getName().charAt(4)) + m.getName().substring(5) : m.getName();
      methods.put(name, m);
    }
    JsonNode properties = schemas.get("SendCodeRequest").get("properties");
    for (String alias : SEND_ALIASES) {
      if (!properties.has(alias)) problems.add("the alias " + alias + " is no longer in the document: drop it from the test");
    }
    for (String prop : names(properties.fieldNames())) {
      if (SEND_ALIASES.contains(prop)) continue;
      Method m = methods.get(prop);
      if (m == null) problems.add("SendCodeRequest." + prop + " is in the document but SendCode has no " + prop + "(...)");
      else checkType("SendCodeRequest." + prop, properties.get(prop),
          m.getParameterCount() == 1 ? m.getGenericParameterTypes()[0] : m.getGenericReturnType());
    }
    for (String name : methods.keySet()) {
      if (!properties.has(name) && !name.equals("idempotencyKey")) problems.add("SendCode." + name + " is not in the document (SendCodeRequest)");
    }
    assertNoProblems();
  }

  /** ContactVerifyException carries every member of the document's ApiError. */
  @Test
  void theExceptionCarriesEveryMemberOfApiError() throws Exception {
    JsonNode properties = schemas.get("ApiError").get("properties");
    for (String prop : names(properties.fieldNames())) {
      try {
        Method m = ContactVerifyException.class.getMethod(prop);
        if (prop.equals("details")) {
          checkType("ApiError.details", properties.get(prop), m.getGenericReturnType());
        }
      } catch (NoSuchMethodException e) {
        problems.add("ApiError." + prop + " is in the document but ContactVerifyException has no " + prop + "()");
      }
    }
    assertEquals(Set.of("code", "message", "details"), names(properties.fieldNames()),
        "ApiError's members (code, message, details): a new one needs an accessor");
    assertNoProblems();
  }
}
