//! Runs clients/scenario.json with this library against a running service (see clients/README.md).

use contact_verify::{Channel, Client, DeliveryType, Link, SendCode, TestOutbox};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::env;

/// The clients a step can name, and the library's test helper.
struct World {
    clients: HashMap<&'static str, Client>,
    outbox: TestOutbox,
}

fn var(name: &str) -> String {
    env::var(name).unwrap_or_else(|_| panic!("{} is not set", name))
}

fn expand(v: &Value, vars: &HashMap<String, String>) -> Value {
    match v {
        Value::String(s) => {
            let mut out = String::new();
            let mut rest = s.as_str();
            while let Some(open) = rest.find('{') {
                out.push_str(&rest[..open]);
                match rest[open..].find('}') {
                    Some(close) => {
                        let name = &rest[open + 1..open + close];
                        match vars.get(name) {
                            Some(value) => out.push_str(value),
                            None => out.push_str(&rest[open..=open + close]),
                        }
                        rest = &rest[open + close + 1..];
                    }
                    None => {
                        out.push_str(&rest[open..]);
                        rest = "";
                    }
                }
            }
            out.push_str(rest);
            Value::String(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(|e| expand(e, vars)).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, e)| (k.clone(), expand(e, vars))).collect()),
        other => other.clone(),
    }
}

fn mismatch(expected: &Value, actual: &Value, at: &str) -> Option<String> {
    match expected {
        Value::Array(e) => match actual {
            Value::Array(a) if a.len() == e.len() => e
                .iter()
                .zip(a)
                .enumerate()
                .find_map(|(i, (x, y))| mismatch(x, y, &format!("{}[{}]", at, i))),
            _ => Some(format!("{}: expected a list of {}, got {}", at, e.len(), actual)),
        },
        Value::Object(e) => match actual {
            Value::Object(a) => e
                .iter()
                .find_map(|(k, x)| mismatch(x, a.get(k).unwrap_or(&Value::Null), &format!("{}.{}", at, k))),
            _ => Some(format!("{}: expected an object, got {}", at, actual)),
        },
        _ if expected == actual => None,
        _ => Some(format!("{}: expected {}, got {}", at, expected, actual)),
    }
}

fn pick<'a>(data: &'a Value, path: &str) -> &'a Value {
    path.replace('[', ".")
        .replace(']', "")
        .split('.')
        .filter(|k| !k.is_empty())
        .fold(data, |v, key| match key.parse::<usize>() {
            Ok(i) if v.is_array() => &v[i],
            _ => &v[key],
        })
}

/// The first run of the pattern `\b(\d{4,10})\b`: digits between non-digits.
fn find_code(text: &str) -> Option<String> {
    text.split(|c: char| !c.is_ascii_digit())
        .find(|run| (4..=10).contains(&run.len()))
        .map(str::to_string)
}

fn outbox_code(to: &str) -> Result<Value, String> {
    let url = format!("{}/v1/admin/outbox", var("CV_BASE_URL"));
    let body: Value = ureq::get(&url)
        .query("to", to)
        .set("Authorization", &format!("Bearer {}", var("CV_ADMIN_TOKEN")))
        .call()
        .map_err(|e| e.to_string())?
        .into_json()
        .map_err(|e| e.to_string())?;
    let text = body["data"][0]["text"].as_str().unwrap_or("");
    find_code(text)
        .map(|code| json!({ "code": code }))
        .ok_or_else(|| format!("no code in the outbox for {}", to))
}

fn text(args: &Value, name: &str) -> Option<String> {
    args.get(name).and_then(Value::as_str).map(str::to_string)
}

fn parsed<T: std::str::FromStr>(args: &Value, name: &str) -> Result<Option<T>, String>
where
    T::Err: std::fmt::Display,
{
    text(args, name)
        .map(|s| s.parse::<T>().map_err(|e| e.to_string()))
        .transpose()
}

/// The step's send, through the library's own builder and options.
fn send_request(args: &Value) -> Result<SendCode, String> {
    let mut request = match args.get("channels").and_then(Value::as_array) {
        Some(list) => {
            let channels = list
                .iter()
                .map(|c| c.as_str().unwrap_or("").parse::<Channel>().map_err(|e| e.to_string()))
                .collect::<Result<Vec<_>, _>>()?;
            match channels.as_slice() {
                [first, second] => SendCode::dual(*first, *second),
                _ => SendCode {
                    channels,
                    ..Default::default()
                },
            }
        }
        None => match parsed::<Channel>(args, "channel")? {
            Some(channel) => SendCode::new(channel),
            None => SendCode::default(),
        },
    };
    if let Some(email) = text(args, "email") {
        request = request.with_email(email);
    }
    if let Some(phone) = text(args, "phone") {
        request = request.with_phone(phone);
    }
    if let Some(country) = text(args, "country") {
        request = request.country(country);
    }
    if let Some(delivery_type) = parsed::<DeliveryType>(args, "deliveryType")? {
        request = request.delivery_type(delivery_type);
    }
    if let Some(purpose) = text(args, "purpose") {
        request = request.purpose(purpose);
    }
    if let Some(message) = text(args, "customMessage") {
        request = request.custom_message(message);
    }
    if let Some(locale) = text(args, "locale") {
        request = request.locale(locale);
    }
    if let Some(link) = args.get("link") {
        request = request.link(Link {
            redirect_url: text(link, "redirectUrl"),
        });
    }
    if let Some(fallback) = parsed::<Channel>(args, "fallback")? {
        request = request.fallback(fallback);
    }
    if let Some(key) = text(args, "idempotencyKey") {
        request = request.idempotency_key(key);
    }
    Ok(request)
}

fn json_of<T: serde::Serialize>(value: T) -> Value {
    serde_json::to_value(value).expect("the models serialize")
}

fn run(step: &Value, world: &World, vars: &mut HashMap<String, String>) -> Result<(), String> {
    let client = &world.clients[step["client"].as_str().unwrap_or("default")];
    let client = match step["retries"].as_u64() {
        Some(retries) => client.with_max_retries(retries as u32),
        None => client.clone(),
    };
    let args = expand(step.get("args").unwrap_or(&json!({})), vars);
    let expect = step.get("expect").cloned().unwrap_or(json!({}));
    let result: Result<Value, contact_verify::Error> = match step["op"].as_str().unwrap_or("") {
        "health" => client.health().map(json_of),
        "sendCode" => {
            let request = send_request(&args)?;
            if request.channels.is_empty() {
                client.send_code(request).map(json_of)
            } else {
                client.send_code_dual(request).map(json_of)
            }
        }
        "verifyCode" => {
            let request_id = text(&args, "requestId").unwrap_or_default();
            match text(&args, "otpCode") {
                Some(code) => client.verify_code(&request_id, &code).map(json_of),
                None => client.verify_silent(&request_id).map(json_of),
            }
        }
        "getVerification" => client
            .get_verification(&text(&args, "requestId").unwrap_or_default())
            .map(json_of),
        "cancelVerification" => client
            .cancel_verification(&text(&args, "requestId").unwrap_or_default())
            .map(json_of),
        "latestOutboxCode" => world
            .outbox
            .latest_outbox_code(&text(&args, "to").unwrap_or_default())
            .map(|code| json!({ "code": code })),
        "outboxCode" => return save(step, &outbox_code(&text(&args, "to").unwrap_or_default())?, vars),
        other => return Err(format!("unknown op {:?}", other)),
    };
    match (result, expect.get("error")) {
        (Err(err), Some(want)) => {
            if Some(err.status as u64) != want["status"].as_u64() || Some(err.code.as_str()) != want["code"].as_str() {
                return Err(format!(
                    "expected {} {}, got {} {}",
                    want["status"], want["code"], err.status, err.code
                ));
            }
            if let Some(least) = want["retryAfterAtLeast"].as_u64() {
                if err.retry_after.map_or(0, |d| d.as_secs()) < least {
                    return Err(format!(
                        "expected retry_after >= {} s, got {:?}",
                        least, err.retry_after
                    ));
                }
            }
            Ok(())
        }
        (Err(err), None) => Err(err.to_string()),
        (Ok(_), Some(want)) => Err(format!("expected {}, got an answer", want["code"])),
        (Ok(answer), None) => {
            if let Some(ok) = expect.get("ok") {
                if let Some(m) = mismatch(&expand(ok, vars), &answer, "data") {
                    return Err(m);
                }
            }
            if let Some(present) = expect.get("present").and_then(Value::as_array) {
                for path in present {
                    let path = path.as_str().unwrap_or("");
                    if pick(&answer, path).is_null() {
                        return Err(format!("data.{}: expected a value, got none", path));
                    }
                }
            }
            save(step, &answer, vars)
        }
    }
}

fn save(step: &Value, answer: &Value, vars: &mut HashMap<String, String>) -> Result<(), String> {
    if let Some(save) = step.get("save").and_then(Value::as_object) {
        for (name, path) in save {
            let value = pick(answer, path.as_str().unwrap_or(""));
            vars.insert(
                name.clone(),
                value.as_str().map(str::to_string).unwrap_or_else(|| value.to_string()),
            );
        }
    }
    Ok(())
}

fn main() {
    let scenario: Value = serde_json::from_str(&std::fs::read_to_string(var("CV_SCENARIO")).unwrap()).unwrap();
    let mut vars: HashMap<String, String> = HashMap::new();
    vars.insert("lang".into(), "rust".into());
    vars.insert("runId".into(), var("CV_RUN_ID"));
    for (k, v) in scenario["vars"].as_object().unwrap() {
        let value = expand(v, &vars);
        vars.insert(k.clone(), value.as_str().unwrap_or("").to_string());
    }
    let mut clients = HashMap::new();
    clients.insert("default", Client::new(var("CV_BASE_URL"), var("CV_API_KEY")));
    clients.insert(
        "badKey",
        Client::new(var("CV_BASE_URL"), "cv_live_not_a_real_key_000000000000"),
    );
    clients.insert("stub", Client::new(var("CV_STUB_URL"), var("CV_API_KEY")));
    // Older harnesses give no test-mode key; only the steps that name this client need it.
    let test_key = env::var("CV_TEST_API_KEY").unwrap_or_default();
    clients.insert("test", Client::new(var("CV_BASE_URL"), test_key));
    let world = World {
        clients,
        outbox: TestOutbox::new(var("CV_BASE_URL"), var("CV_ADMIN_TOKEN")),
    };
    let steps = scenario["steps"].as_array().unwrap();
    let mut failed = 0;
    for step in steps {
        let name = step["name"].as_str().unwrap_or("");
        match run(step, &world, &mut vars) {
            Ok(()) => println!("ok   {}", name),
            Err(why) => {
                failed += 1;
                println!("FAIL {}: {}", name, why);
            }
        }
    }
    println!("{} passed, {} failed", steps.len() - failed, failed);
    std::process::exit(if failed == 0 { 0 } else { 1 });
}
