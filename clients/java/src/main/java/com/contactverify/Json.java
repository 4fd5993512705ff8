package com.contactverify;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.io.IOException;
import java.time.Instant;

/**
 * The library's Jackson mapper. Instant is read and written as ISO-8601 here, so the library
 * needs jackson-databind alone (no jsr310 module); unknown members and enum values from a newer
 * service are ignored (null) rather than failing a call.
 */
final class Json {
  private Json() {}

  static final ObjectMapper MAPPER = new ObjectMapper()
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
      .configure(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL, true)
      .setSerializationInclusion(JsonInclude.Include.NON_NULL)
      .registerModule(new SimpleModule("contact-verify-time")
          .addSerializer(Instant.class, ToStringSerializer.instance)
          .addDeserializer(Instant.class, new StdDeserializer<Instant>(Instant.class) {
            private static final long serialVersionUID = 1L;

            @Override
            public Instant deserialize(JsonParser p, DeserializationContext ctx) throws IOException {
              return Instant.parse(p.getValueAsString());
            }
          }));
}
