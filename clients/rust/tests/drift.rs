//! The library's models are written by hand and held to the service's OpenAPI document here: a
//! field, an enum value or an error code the document adds (or drops) fails this test until the
//! library follows. The document is $CV_OPENAPI, by default the repository's clients/openapi.json.
//!
//! Field names are compared through serde: each model, with every optional field set, is
//! serialized, and its keys must be the schema's properties (nested models too). Each example
//! below is a struct literal without `..Default::default()`, so a field added to a model does not
//! compile until it is added here.

use contact_verify::time::OffsetDateTime;
use contact_verify::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::str::FromStr;

fn document() -> Value {
    let path = std::env::var("CV_OPENAPI")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi.json").to_string());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("the OpenAPI document {}: {}", path, e));
    serde_json::from_str(&text).expect("the OpenAPI document is JSON")
}

fn schema<'a>(doc: &'a Value, name: &str) -> &'a Value {
    let s = &doc["components"]["schemas"][name];
    assert!(s.is_object(), "the document has no schema {}", name);
    s
}

/// The schema a `$ref` points to, or the schema itself.
fn resolve<'a>(doc: &'a Value, s: &'a Value) -> &'a Value {
    match s["$ref"].as_str() {
        Some(r) => schema(doc, r.trim_start_matches("#/components/schemas/")),
        None => s,
    }
}

/// Compares the keys of a serialized model with a schema's properties, both ways, and goes into
/// nested objects, lists and maps. `aliases` are properties the library does not offer on purpose.
fn compare(doc: &Value, at: &str, s: &Value, value: &Value, aliases: &[&str], problems: &mut Vec<String>) {
    let s = resolve(doc, s);
    let props = match s["properties"].as_object() {
        Some(p) => p,
        None => return,
    };
    let obj = match value.as_object() {
        Some(o) => o,
        None => return problems.push(format!("{}: the schema is an object, the model gives {}", at, value)),
    };
    for alias in aliases {
        if !props.contains_key(*alias) {
            problems.push(format!(
                "{}: the alias {} is no longer in the document: drop it from the test",
                at, alias
            ));
        }
    }
    for (name, prop) in props {
        if aliases.contains(&name.as_str()) {
            continue;
        }
        match obj.get(name) {
            None => problems.push(format!("{}.{} is in the document but not in the library", at, name)),
            Some(v) => {
                let prop = resolve(doc, prop);
                let inner = format!("{}.{}", at, name);
                if let (Some(items), Some(list)) = (prop.get("items"), v.as_array()) {
                    match list.first() {
                        Some(first) => compare(doc, &format!("{}[]", inner), items, first, &[], problems),
                        None => problems.push(format!("{}: give the example one element", inner)),
                    }
                } else if let (Some(values), Some(map)) = (prop["additionalProperties"].as_object(), v.as_object()) {
                    let values = Value::Object(values.clone());
                    for (k, each) in map {
                        compare(doc, &format!("{}{{{}}}", inner, k), &values, each, &[], problems);
                    }
                } else {
                    compare(doc, &inner, prop, v, &[], problems);
                }
            }
        }
    }
    for name in obj.keys() {
        if !props.contains_key(name) {
            problems.push(format!("{}.{} is in the library but not in the document", at, name));
        }
    }
}

/// Each `date-time` property of the schema is a time in the model: the same JSON with that
/// property set to a word no longer parses.
fn check_times<T: DeserializeOwned>(doc: &Value, name: &str, example: &Value, problems: &mut Vec<String>) {
    assert!(
        serde_json::from_value::<T>(example.clone()).is_ok(),
        "{}: the example parses back",
        name
    );
    for (prop, s) in schema(doc, name)["properties"].as_object().unwrap() {
        if s["format"] == "date-time" {
            let mut broken = example.clone();
            broken[prop] = json!("not a time");
            if serde_json::from_value::<T>(broken).is_ok() {
                problems.push(format!(
                    "{}.{} is a date-time in the document, not a time in the library",
                    name, prop
                ));
            }
        }
    }
}

fn model<T: Serialize>(doc: &Value, name: &str, example: &T, aliases: &[&str], problems: &mut Vec<String>) -> Value {
    let value = serde_json::to_value(example).unwrap();
    compare(doc, name, schema(doc, name), &value, aliases, problems);
    value
}

fn when() -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(1_900_000_000).unwrap()
}

fn entry() -> SendCodeEntry {
    SendCodeEntry {
        request_id: "0190a7c2-0000-7000-8000-000000000001".into(),
        channel: Channel::WhatsApp,
        status: EntryStatus::Undelivered,
        expires_at: when(),
        to: "+44******456".into(),
        delivery_type: Some(DeliveryType::Call),
        error: Some(SendCodeEntryError {
            code: EntryErrorCode::DeliveryFailed,
            message: "m".into(),
        }),
        risk: Some(Risk {
            score: 20,
            level: RiskLevel::Low,
            signals: vec![RiskSignal {
                name: "number_type".into(),
                weight: 20,
                detail: "a VOIP number".into(),
            }],
        }),
        silent: Some(SilentCheck {
            url: "https://silent.test.invalid/check/abc".into(),
        }),
        fallback: Some(fallback()),
    }
}

fn fallback() -> SilentFallback {
    SilentFallback {
        request_id: "0190a7c2-0000-7000-8000-000000000002".into(),
        channel: Channel::Sms,
        status: EntryStatus::Pending,
        reason: FallbackReason::ProviderFailed,
        expires_at: when(),
    }
}

#[test]
fn models_have_the_fields_of_the_document() {
    let doc = document();
    let mut problems = Vec::new();

    let send = SendCode {
        channel: Some(Channel::Email),
        channels: vec![Channel::Email, Channel::Sms],
        email: Some("jane@example.com".into()),
        phone: Some("+14155552671".into()),
        country: Some("US".into()),
        delivery_type: Some(DeliveryType::Text),
        purpose: Some("sign-in".into()),
        custom_message: Some("Welcome back".into()),
        locale: Some("es-MX".into()),
        link: Some(Link::redirect_to("https://app.example.com/welcome")),
        fallback: Some(Channel::Sms),
        idempotency_key: Some("a header, not a field of the body".into()),
    };
    // Other names of `phone` the service accepts; the library offers `phone` only.
    model(
        &doc,
        "SendCodeRequest",
        &send,
        &["whatsappNumber", "phoneNumber"],
        &mut problems,
    );

    let value = model(&doc, "SendCodeEntry", &entry(), &[], &mut problems);
    check_times::<SendCodeEntry>(&doc, "SendCodeEntry", &value, &mut problems);

    let verify = VerifyCodeResult {
        verified: true,
        channel: Channel::Sms,
        request_id: "0190a7c2-0000-7000-8000-000000000001".into(),
        status: VerificationStatus::Verified,
        attempts_remaining: 4,
        silent: Some(SilentResult {
            outcome: SilentOutcome::Rejected,
            reason: Some("another SIM".into()),
        }),
        fallback: Some(fallback()),
    };
    model(&doc, "VerifyCodeResult", &verify, &[], &mut problems);
    let value = model(&doc, "SilentFallback", &fallback(), &[], &mut problems);
    check_times::<SilentFallback>(&doc, "SilentFallback", &value, &mut problems);

    let resource = Verification {
        request_id: "0190a7c2-0000-7000-8000-000000000001".into(),
        channel: Channel::WhatsApp,
        status: VerificationStatus::Verified,
        to: "+44******456".into(),
        created_at: when(),
        expires_at: when(),
        attempts_remaining: 4,
        delivery_type: Some(DeliveryType::Text),
        verified_at: Some(when()),
        method: Some(VerificationMethod::Code),
        sibling_request_id: Some("0190a7c2-0000-7000-8000-000000000002".into()),
        delivery: VerificationDelivery {
            status: DeliveryState::Delivered,
            provider: Some("twilio".into()),
            updated_at: when(),
        },
        fallback: Some(VerificationFallback {
            channel: Channel::Sms,
            state: FallbackState::Fired,
            reason: Some(FallbackReason::Timeout),
            request_id: Some("0190a7c2-0000-7000-8000-000000000002".into()),
        }),
    };
    let value = model(&doc, "Verification", &resource, &[], &mut problems);
    check_times::<Verification>(&doc, "Verification", &value, &mut problems);
    check_times::<VerificationDelivery>(&doc, "VerificationDelivery", &value["delivery"], &mut problems);
    assert_eq!(serde_json::from_value::<Verification>(value).unwrap(), resource);

    let detail = ErrorDetail {
        field: "email".into(),
        message: "m".into(),
        channel: Some(Channel::Email),
    };
    model(&doc, "ErrorDetail", &detail, &[], &mut problems);
    // The error body: Error carries code, message and details (status and retry_after are the
    // answer's, not the body's).
    let err = json!({ "code": ErrorCode::NotFound, "message": "m", "details": [detail] });
    compare(&doc, "ApiError", schema(&doc, "ApiError"), &err, &[], &mut problems);

    let mut channels = BTreeMap::new();
    channels.insert(
        Channel::Email,
        ChannelHealth {
            operational: true,
            providers: vec![ProviderHealth {
                name: "outbox".into(),
                state: ProviderState::Up,
                detail: Some("calling ENABLED".into()),
            }],
            live_codes: LiveCodes::Outbox,
            note: Some("live codes stay in the outbox".into()),
        },
    );
    let rotation = CodeSecretRotation {
        previous_secrets: 1,
        since: when(),
        removable_after: when() + contact_verify::time::Duration::days(1),
    };
    let value = model(&doc, "CodeSecretRotation", &rotation, &[], &mut problems);
    check_times::<CodeSecretRotation>(&doc, "CodeSecretRotation", &value, &mut problems);
    let health = Health {
        status: HealthStatus::Ok,
        version: "1.0.0".into(),
        uptime_seconds: 1,
        services: Services {
            database: ServiceState::Up,
            rate_limit_store: ServiceState::Up,
        },
        channels,
        // Every field of the document is serialized: `detail` too, which the service leaves out here.
        lookups: Some(ProviderHealth {
            name: "twilio".into(),
            state: ProviderState::Down,
            detail: Some("a detail".into()),
        }),
        instances: Some(InstancesHealth {
            live: 2,
            without_redis: 1,
        }),
        pumping_breakers: vec![PumpingBreakerCount {
            country: "FR".into(),
            count: 1,
        }],
        code_secret_rotation: Some(rotation),
    };
    let value = model(&doc, "Health", &health, &[], &mut problems);
    assert_eq!(serde_json::from_value::<Health>(value).unwrap(), health);

    let message = OutboxMessage {
        id: "msg_0190a7c2000070008000000000000001".into(),
        account_id: "acc_1".into(),
        request_id: "0190a7c2-0000-7000-8000-000000000001".into(),
        group_id: "0190a7c2-0000-7000-8000-000000000001".into(),
        sibling_request_id: Some("0190a7c2-0000-7000-8000-000000000002".into()),
        status: VerificationStatus::Pending,
        channel: Channel::Email,
        to: "jane@example.com".into(),
        subject: Some("Your code".into()),
        text: "Your code is 042817".into(),
        html: Some("<p>042817</p>".into()),
        code: Some("042817".into()),
        created_at: when(),
        verified_at: Some(when()),
        method: Some(VerificationMethod::Link),
    };
    let value = model(&doc, "OutboxMessage", &message, &[], &mut problems);
    check_times::<OutboxMessage>(&doc, "OutboxMessage", &value, &mut problems);

    assert!(
        problems.is_empty(),
        "the models drifted from the document:\n{}",
        problems.join("\n")
    );
}

/// Every value of the document's enum parses into the library's, and every value of the
/// library's (but its own) is in the document.
fn enum_matches<T: FromStr + Copy + ToString>(
    doc: &Value,
    name: &str,
    enum_schema: &Value,
    all: &[T],
    own: &[T],
    problems: &mut Vec<String>,
) {
    let documented: BTreeSet<String> = enum_schema["enum"]
        .as_array()
        .unwrap_or_else(|| panic!("{} is an enum in the document", name))
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    for value in &documented {
        if value.parse::<T>().is_err() {
            problems.push(format!(
                "{} {:?} is in the document but not in the library",
                name, value
            ));
        }
    }
    let own: BTreeSet<String> = own.iter().map(ToString::to_string).collect();
    for value in all.iter().map(ToString::to_string) {
        if !documented.contains(&value) && !own.contains(&value) {
            problems.push(format!(
                "{} {:?} is in the library but not in the document",
                name, value
            ));
        }
    }
    let _ = doc;
}

#[test]
fn enums_and_error_codes_are_the_documents() {
    let doc = document();
    let d = &doc;
    let mut p = Vec::new();
    enum_matches(d, "Channel", schema(d, "Channel"), Channel::ALL, &[], &mut p);
    enum_matches(
        d,
        "DeliveryType",
        schema(d, "DeliveryType"),
        DeliveryType::ALL,
        &[],
        &mut p,
    );
    enum_matches(
        d,
        "VerificationStatus",
        schema(d, "VerificationStatus"),
        VerificationStatus::ALL,
        &[],
        &mut p,
    );
    enum_matches(
        d,
        "EntryStatus",
        schema(d, "SendCodeEntryStatus"),
        EntryStatus::ALL,
        &[],
        &mut p,
    );
    let entry_error_code = &schema(d, "SendCodeEntryError")["properties"]["code"];
    enum_matches(d, "EntryErrorCode", entry_error_code, EntryErrorCode::ALL, &[], &mut p);
    enum_matches(d, "RiskLevel", schema(d, "RiskLevel"), RiskLevel::ALL, &[], &mut p);
    enum_matches(
        d,
        "HealthStatus",
        schema(d, "HealthStatus"),
        HealthStatus::ALL,
        &[],
        &mut p,
    );
    enum_matches(
        d,
        "ServiceState",
        schema(d, "ServiceState"),
        ServiceState::ALL,
        &[],
        &mut p,
    );
    enum_matches(
        d,
        "ProviderState",
        schema(d, "ProviderState"),
        ProviderState::ALL,
        &[],
        &mut p,
    );
    enum_matches(d, "LiveCodes", schema(d, "LiveCodes"), LiveCodes::ALL, &[], &mut p);
    // Open enums: `Unknown` stands for a value this version does not know yet.
    enum_matches(
        d,
        "VerificationMethod",
        schema(d, "VerificationMethod"),
        VerificationMethod::ALL,
        &[VerificationMethod::Unknown],
        &mut p,
    );
    enum_matches(
        d,
        "DeliveryState",
        schema(d, "DeliveryState"),
        DeliveryState::ALL,
        &[DeliveryState::Unknown],
        &mut p,
    );
    enum_matches(
        d,
        "FallbackReason",
        schema(d, "FallbackReason"),
        FallbackReason::ALL,
        &[FallbackReason::Unknown],
        &mut p,
    );
    let state = &schema(d, "Verification")["properties"]["fallback"]["properties"]["state"];
    enum_matches(
        d,
        "FallbackState",
        state,
        FallbackState::ALL,
        &[FallbackState::Unknown],
        &mut p,
    );
    let outcome = &schema(d, "VerifyCodeResult")["properties"]["silent"]["properties"]["outcome"];
    enum_matches(
        d,
        "SilentOutcome",
        outcome,
        SilentOutcome::ALL,
        &[SilentOutcome::Unknown],
        &mut p,
    );
    // send's fallback takes a Channel: each channel the document allows must be one.
    let fallbacks = &schema(d, "SendCodeRequest")["properties"]["fallback"];
    for value in fallbacks["enum"]
        .as_array()
        .expect("SendCodeRequest.fallback is an enum")
    {
        if value.as_str().unwrap().parse::<Channel>().is_err() {
            p.push(format!("SendCodeRequest.fallback {} is not a Channel", value));
        }
    }
    enum_matches(
        d,
        "ErrorCode",
        schema(d, "ErrorCode"),
        ErrorCode::ALL,
        ErrorCode::LIBRARY_ONLY,
        &mut p,
    );
    assert!(p.is_empty(), "the enums drifted from the document:\n{}", p.join("\n"));

    // The error codes in the document's order, then the library's own.
    let documented: Vec<&str> = d["components"]["schemas"]["ErrorCode"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let library: Vec<&str> = ErrorCode::ALL
        .iter()
        .filter(|c| !ErrorCode::LIBRARY_ONLY.contains(c))
        .map(|c| c.as_str())
        .collect();
    assert_eq!(library, documented);
    assert!(documented.contains(&"FORBIDDEN") && documented.contains(&"CHANNEL_UNAVAILABLE"));
}

/// The checks above can fail: a document with one more field, enum value and error code.
#[test]
fn a_field_or_value_added_to_the_document_fails() {
    let mut doc = document();
    doc["components"]["schemas"]["SendCodeEntry"]["properties"]["channelName"] = json!({ "type": "string" });
    doc["components"]["schemas"]["Risk"]["properties"]["model"] = json!({ "type": "string" });
    let mut problems = Vec::new();
    model(&doc, "SendCodeEntry", &entry(), &[], &mut problems);
    assert_eq!(
        problems,
        vec![
            "SendCodeEntry.channelName is in the document but not in the library".to_string(),
            "SendCodeEntry.risk.model is in the document but not in the library".to_string(),
        ]
    );

    let mut problems = Vec::new();
    let mut codes = schema(&doc, "ErrorCode").clone();
    codes["enum"].as_array_mut().unwrap().push(json!("PAYMENT_REQUIRED"));
    enum_matches(
        &doc,
        "ErrorCode",
        &codes,
        ErrorCode::ALL,
        ErrorCode::LIBRARY_ONLY,
        &mut problems,
    );
    assert_eq!(
        problems,
        vec!["ErrorCode \"PAYMENT_REQUIRED\" is in the document but not in the library".to_string()]
    );

    let mut problems = Vec::new();
    let mut times = doc.clone();
    times["components"]["schemas"]["OutboxMessage"]["properties"]["text"] =
        json!({ "type": "string", "format": "date-time" });
    let value = serde_json::to_value(OutboxMessage {
        id: "m".into(),
        account_id: "a".into(),
        request_id: "r".into(),
        group_id: "r".into(),
        sibling_request_id: None,
        status: VerificationStatus::Expired,
        channel: Channel::Sms,
        to: "+1".into(),
        subject: None,
        text: "t".into(),
        html: None,
        code: None,
        created_at: when(),
        verified_at: None,
        method: None,
    })
    .unwrap();
    check_times::<OutboxMessage>(&times, "OutboxMessage", &value, &mut problems);
    assert_eq!(
        problems,
        vec!["OutboxMessage.text is a date-time in the document, not a time in the library".to_string()]
    );
}
