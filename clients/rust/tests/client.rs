//! The client's retry rules, typed errors, options and test helper, against a scripted transport
//! (the shared scenario runs it against the real service), and the default `ureq` transport
//! against a local HTTP server.

use contact_verify::*;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const REQUEST_ID: &str = "0190a7c2-0000-7000-8000-000000000001";

fn sent() -> Value {
    json!({ "data": { "requestId": REQUEST_ID, "channel": "EMAIL", "status": "pending",
                      "expiresAt": "2030-01-01T00:10:00.000Z", "to": "j***@example.com" } })
}

fn failure(code: &str) -> Value {
    json!({ "error": { "code": code, "message": "scripted", "details": [{ "field": "email", "message": "m" }] } })
}

/// A scripted answer: status, Retry-After, body.
type Answer = (u16, Option<&'static str>, String);

/// Answers in order (the last one again once they run out) and keeps every request.
#[derive(Clone, Default)]
struct Scripted {
    answers: Arc<Mutex<Vec<Answer>>>,
    requests: Arc<Mutex<Vec<HttpRequest>>>,
}

impl Scripted {
    fn new(answers: Vec<(u16, Option<&'static str>, Value)>) -> Self {
        let answers = answers
            .into_iter()
            .map(|(s, r, b)| (s, r, b.as_str().map(str::to_string).unwrap_or_else(|| b.to_string())))
            .collect();
        Scripted {
            answers: Arc::new(Mutex::new(answers)),
            requests: Arc::default(),
        }
    }

    fn client(&self) -> Client {
        Client::builder("http://cv.test/", "cvk_test_key")
            .transport(self.clone())
            .build()
    }

    fn requests(&self) -> Vec<HttpRequest> {
        self.requests.lock().unwrap().clone()
    }
}

impl Transport for Scripted {
    fn call(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        self.requests.lock().unwrap().push(request);
        let mut answers = self.answers.lock().unwrap();
        let (status, retry_after, body) = if answers.len() > 1 {
            answers.remove(0)
        } else {
            answers[0].clone()
        };
        let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
        if let Some(r) = retry_after {
            headers.push(("retry-after".to_string(), r.to_string()));
        }
        Ok(HttpResponse {
            status,
            headers,
            body: body.into_bytes(),
        })
    }
}

#[test]
fn sends_with_every_option_and_parses_the_entry() {
    let s = Scripted::new(vec![(200, None, sent())]);
    let entry = s
        .client()
        .send_code(
            SendCode::email("jane@example.com")
                .purpose("sign-in")
                .custom_message("Welcome back")
                .locale("fr-FR")
                .country("FR")
                .delivery_type(DeliveryType::Text)
                .idempotency_key("order-42"),
        )
        .unwrap();
    assert_eq!(entry.request_id, REQUEST_ID);
    assert_eq!((entry.channel, entry.status), (Channel::Email, EntryStatus::Pending));
    assert_eq!(entry.expires_at.unix_timestamp(), 1_893_456_600);
    let requests = s.requests();
    let r = &requests[0];
    assert_eq!(
        (r.method, r.url.as_str()),
        ("POST", "http://cv.test/v1/contact/send-code")
    );
    assert_eq!(r.header("idempotency-key"), Some("order-42"));
    assert_eq!(r.header("authorization"), Some("Bearer cvk_test_key"));
    assert_eq!(
        r.header("user-agent"),
        Some(format!("contact-verify-rust/{}", VERSION).as_str())
    );
    let body: Value = serde_json::from_slice(r.body.as_ref().unwrap()).unwrap();
    assert_eq!(
        body,
        json!({ "channel": "EMAIL", "email": "jane@example.com", "purpose": "sign-in", "customMessage": "Welcome back",
                "locale": "fr-FR", "country": "FR", "deliveryType": "TEXT" })
    );
}

#[test]
fn a_dual_send_answers_one_entry_per_channel() {
    let mut second = sent()["data"].clone();
    second["channel"] = json!("SMS");
    second["status"] = json!("undelivered");
    second["error"] = json!({ "code": "DELIVERY_FAILED", "message": "m" });
    let s = Scripted::new(vec![(200, None, json!({ "data": [sent()["data"], second] }))]);
    let entries = s
        .client()
        .send_code_dual(
            SendCode::dual(Channel::Email, Channel::Sms)
                .with_email("s@x.io")
                .with_phone("+14155552672"),
        )
        .unwrap();
    assert_eq!(entries.len(), 2);
    assert_eq!(
        entries[1].error.as_ref().map(|e| e.code),
        Some(EntryErrorCode::DeliveryFailed)
    );
    let body: Value = serde_json::from_slice(s.requests()[0].body.as_ref().unwrap()).unwrap();
    assert_eq!(
        body,
        json!({ "channels": ["EMAIL", "SMS"], "email": "s@x.io", "phone": "+14155552672" })
    );
}

#[test]
fn a_send_of_the_wrong_shape_is_refused_before_any_request() {
    let s = Scripted::new(vec![(200, None, sent())]);
    let err = s
        .client()
        .send_code(SendCode::dual(Channel::Email, Channel::Sms))
        .unwrap_err();
    assert_eq!((err.status, err.code), (0, ErrorCode::ValidationError));
    let err = s.client().send_code_dual(SendCode::email("j@x.io")).unwrap_err();
    assert_eq!((err.status, err.code), (0, ErrorCode::ValidationError));
    assert!(s.requests().is_empty());
}

#[test]
fn retries_a_503_at_most_max_retries_times() {
    let s = Scripted::new(vec![(503, Some("0"), failure("UNAVAILABLE"))]);
    let err = s.client().health().unwrap_err();
    assert_eq!((err.status, err.code), (503, ErrorCode::Unavailable));
    assert_eq!(s.requests().len(), 3);
    let s = Scripted::new(vec![(503, Some("0"), failure("UNAVAILABLE"))]);
    s.client().with_max_retries(0).health().unwrap_err();
    assert_eq!(s.requests().len(), 1);
}

#[test]
fn never_retries_503_channel_unavailable() {
    let s = Scripted::new(vec![(503, None, failure("CHANNEL_UNAVAILABLE"))]);
    let err = s.client().send_code(SendCode::sms("+14155552671")).unwrap_err();
    assert_eq!((err.status, err.code), (503, ErrorCode::ChannelUnavailable));
    assert_eq!(s.requests().len(), 1);
}

#[test]
fn backs_off_on_a_503_without_retry_after_or_body() {
    let health = json!({ "status": "ok", "version": "1", "uptimeSeconds": 3,
        "services": { "database": "up", "rateLimitStore": "up" },
        "channels": { "EMAIL": { "operational": true, "providers": [{ "name": "outbox", "state": "unknown" }], "liveCodes": "outbox" } } });
    let s = Scripted::new(vec![(503, None, json!("<html>proxy</html>")), (200, None, health)]);
    let started = Instant::now();
    let h = s.client().health().unwrap();
    assert!(started.elapsed() >= Duration::from_millis(200));
    assert_eq!(h.status, HealthStatus::Ok);
    assert_eq!(h.channels[&Channel::Email].live_codes, LiveCodes::Outbox);
    assert_eq!(s.requests().len(), 2);
}

#[test]
fn retries_rate_limited_only_with_a_retry_after_of_at_most_10_s() {
    let s = Scripted::new(vec![(429, Some("0"), failure("RATE_LIMITED")), (200, None, sent())]);
    assert_eq!(
        s.client().send_code(SendCode::email("j@x.io")).unwrap().request_id,
        REQUEST_ID
    );
    assert_eq!(s.requests().len(), 2);
    for retry_after in [None, Some("11")] {
        let s = Scripted::new(vec![(429, retry_after, failure("RATE_LIMITED"))]);
        let err = s.client().send_code(SendCode::email("j@x.io")).unwrap_err();
        assert_eq!(err.code, ErrorCode::RateLimited);
        assert_eq!(err.retry_after, retry_after.map(|_| Duration::from_secs(11)));
        assert_eq!(s.requests().len(), 1);
    }
}

#[test]
fn never_retries_other_4xx_and_keeps_code_message_and_details() {
    for (status, code, want) in [
        (429, "TOO_MANY_ATTEMPTS", ErrorCode::TooManyAttempts),
        (401, "UNAUTHORIZED", ErrorCode::Unauthorized),
        (400, "VALIDATION_ERROR", ErrorCode::ValidationError),
        (404, "NOT_FOUND", ErrorCode::NotFound),
        (403, "FORBIDDEN", ErrorCode::Forbidden),
        (418, "A_CODE_OF_A_NEWER_SERVICE", ErrorCode::Unknown),
    ] {
        let s = Scripted::new(vec![(status, Some("0"), failure(code))]);
        let err = s.client().verify_code(REQUEST_ID, "123456").unwrap_err();
        assert_eq!((err.status, err.code, err.message.as_str()), (status, want, "scripted"));
        assert_eq!(
            err.details,
            vec![ErrorDetail {
                field: "email".into(),
                message: "m".into(),
                channel: None
            }]
        );
        assert_eq!(s.requests().len(), 1, "{} is not retried", code);
        assert_eq!(err.to_string(), format!("{} {}: scripted", status, want));
    }
}

#[test]
fn one_idempotency_key_per_send_the_same_on_each_retry() {
    let s = Scripted::new(vec![
        (503, Some("0"), failure("UNAVAILABLE")),
        (503, Some("0"), failure("UNAVAILABLE")),
        (200, None, sent()),
    ]);
    let cv = s.client();
    cv.send_code(SendCode::email("j@x.io")).unwrap();
    cv.send_code(SendCode::email("j@x.io")).unwrap();
    let keys: Vec<String> = s
        .requests()
        .iter()
        .map(|r| r.header("idempotency-key").unwrap().to_string())
        .collect();
    assert_eq!(keys.len(), 4);
    let uuid = keys[0].as_bytes();
    assert!(
        keys[0].len() == 36 && uuid[14] == b'4' && b"89ab".contains(&uuid[19]),
        "a v4 UUID: {}",
        keys[0]
    );
    assert_eq!(&keys[..3], &[keys[0].clone(), keys[0].clone(), keys[0].clone()]);
    assert_ne!(keys[3], keys[0]);
}

#[test]
fn verify_parses_the_status_and_a_wrong_code_is_not_an_error() {
    let s = Scripted::new(vec![(
        200,
        None,
        json!({ "data": { "verified": false, "channel": "SMS", "requestId": REQUEST_ID, "status": "pending", "attemptsRemaining": 4 } }),
    )]);
    let r = s.client().verify_code(REQUEST_ID, "000000").unwrap();
    assert_eq!(
        (r.verified, r.status, r.attempts_remaining),
        (false, VerificationStatus::Pending, 4)
    );
    let body: Value = serde_json::from_slice(s.requests()[0].body.as_ref().unwrap()).unwrap();
    assert_eq!(body, json!({ "requestId": REQUEST_ID, "otpCode": "000000" }));
}

#[test]
fn no_answer_is_a_network_error_with_its_cause() {
    struct Refused;
    impl Transport for Refused {
        fn call(&self, _: HttpRequest) -> Result<HttpResponse, TransportError> {
            Err(Box::new(std::io::Error::new(
                std::io::ErrorKind::ConnectionRefused,
                "refused",
            )))
        }
    }
    let err = Client::builder("http://cv.test", "k")
        .transport(Refused)
        .build()
        .health()
        .unwrap_err();
    assert_eq!((err.status, err.code), (0, ErrorCode::NetworkError));
    assert!(std::error::Error::source(&err).is_some());
}

fn outbox_answer(code: Option<&str>) -> Value {
    let mut message = json!({ "id": "msg_1", "accountId": "acc_1", "requestId": REQUEST_ID, "groupId": REQUEST_ID, "status": "pending", "channel": "EMAIL",
        "to": "j+1@x.io", "subject": "Your code", "text": "Your code is 042817", "createdAt": "2030-01-01T00:00:00Z" });
    if let Some(c) = code {
        message["code"] = json!(c);
    }
    let older = json!({ "id": "msg_0", "accountId": "acc_1", "requestId": REQUEST_ID, "groupId": REQUEST_ID, "status": "pending", "channel": "EMAIL",
        "to": "j+1@x.io", "text": "Your code is 111111", "code": "111111", "createdAt": "2029-01-01T00:00:00Z" });
    json!({ "data": [message, older] })
}

#[test]
fn latest_outbox_code_reads_the_newest_message_with_the_admin_token() {
    let s = Scripted::new(vec![(200, None, outbox_answer(Some("042817")))]);
    let outbox = TestOutbox::with_transport("http://cv.test/", "admin-token", s.clone());
    assert_eq!(outbox.latest_outbox_code("j+1@x.io").unwrap(), "042817");
    let r = &s.requests()[0];
    assert_eq!(
        (r.method, r.url.as_str()),
        ("GET", "http://cv.test/v1/admin/outbox?to=j%2B1%40x.io")
    );
    assert_eq!(r.header("authorization"), Some("Bearer admin-token"));

    // The newest message has no code (a live request's, or no longer pending): no older code.
    let s = Scripted::new(vec![(200, None, outbox_answer(None))]);
    let err = TestOutbox::with_transport("http://cv.test", "t", s)
        .latest_outbox_code("j+1@x.io")
        .unwrap_err();
    assert_eq!((err.status, err.code), (0, ErrorCode::NoOutboxCode));
    let s = Scripted::new(vec![(200, None, json!({ "data": [] }))]);
    let err = TestOutbox::with_transport("http://cv.test", "t", s)
        .latest_outbox_code("+33612345678")
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::NoOutboxCode);
    let s = Scripted::new(vec![(401, None, failure("UNAUTHORIZED"))]);
    let err = TestOutbox::with_transport("http://cv.test", "t", s)
        .latest_outbox_code("+33612345678")
        .unwrap_err();
    assert_eq!((err.status, err.code), (401, ErrorCode::Unauthorized));
}

/// A one-connection-per-answer HTTP server: each accepted request is answered by the next of
/// `answers` (status line and headers given whole); returns its address and what it received.
fn serve(answers: Vec<&'static str>) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    std::thread::spawn(move || {
        for answer in answers {
            let (mut stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut head = String::new();
            let mut length = 0;
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap();
                }
                head.push_str(&line);
                if line == "\r\n" {
                    break;
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            log.lock().unwrap().push(head + &String::from_utf8(body).unwrap());
            stream.write_all(answer.as_bytes()).unwrap();
        }
    });
    (addr, seen)
}

#[test]
fn the_ureq_transport_sends_headers_and_body_and_reads_error_answers() {
    let body = r#"{"error":{"code":"RATE_LIMITED","message":"wait"}}"#;
    let limited = Box::leak(
        format!(
            "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: 30\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
            body.len(),
            body
        )
        .into_boxed_str(),
    );
    let (url, seen) = serve(vec![limited]);
    let err = Client::new(url, "cvk_test_key")
        .send_code(SendCode::email("j@x.io").idempotency_key("k-1"))
        .unwrap_err();
    assert_eq!(
        (err.status, err.code, err.retry_after),
        (429, ErrorCode::RateLimited, Some(Duration::from_secs(30)))
    );
    let request = seen.lock().unwrap()[0].to_ascii_lowercase();
    assert!(
        request.starts_with("post /v1/contact/send-code http/1.1\r\n"),
        "{}",
        request
    );
    for line in [
        "authorization: bearer cvk_test_key",
        "idempotency-key: k-1",
        "content-type: application/json",
    ] {
        assert!(request.contains(line), "{} in {}", line, request);
    }
    assert!(
        request.ends_with(r#"{"channel":"email","email":"j@x.io"}"#),
        "{}",
        request
    );
}

#[test]
fn an_injected_ureq_agent_is_used_and_a_closed_port_is_a_network_error() {
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(2))
        .user_agent("ignored")
        .build();
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let err = Client::builder(format!("http://127.0.0.1:{}", port), "k")
        .agent(agent)
        .max_retries(0)
        .build()
        .health()
        .unwrap_err();
    assert_eq!((err.status, err.code), (0, ErrorCode::NetworkError));
    assert!(err.message.contains("no answer"), "{}", err.message);
}
