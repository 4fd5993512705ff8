//! The `tokio` feature's futures, on a current-thread runtime, against a scripted transport.
#![cfg(feature = "tokio")]

use contact_verify::*;
use std::sync::{Arc, Mutex};

struct Answers(Mutex<Vec<(u16, &'static str)>>, Arc<Mutex<Vec<String>>>);

impl Transport for Answers {
    fn call(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        self.1
            .lock()
            .unwrap()
            .push(format!("{} {}", request.method, request.path()));
        let (status, body) = self.0.lock().unwrap().remove(0);
        Ok(HttpResponse {
            status,
            headers: vec![("Retry-After".into(), "0".into())],
            body: body.as_bytes().to_vec(),
        })
    }
}

#[test]
fn the_async_client_sends_verifies_and_reads_the_outbox() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let answers = Answers(
        Mutex::new(vec![
            (503, r#"{"error":{"code":"UNAVAILABLE","message":"lost"}}"#),
            (
                200,
                r#"{"data":{"requestId":"r-1","channel":"SMS","status":"pending","expiresAt":"2030-01-01T00:00:00Z","to":"+1***71"}}"#,
            ),
            (
                200,
                r#"{"data":[{"id":"m","accountId":"a","requestId":"r-1","groupId":"r-1","status":"pending","channel":"SMS","to":"+14155552671","text":"t","code":"042817","createdAt":"2030-01-01T00:00:00Z"}]}"#,
            ),
            (
                200,
                r#"{"data":{"verified":true,"channel":"SMS","requestId":"r-1","status":"verified","attemptsRemaining":4}}"#,
            ),
            (
                429,
                r#"{"error":{"code":"TOO_MANY_ATTEMPTS","message":"send a new code"}}"#,
            ),
        ]),
        seen.clone(),
    );
    let transport = Arc::new(answers);
    let cv = AsyncClient::from(
        Client::builder("http://cv.test", "k")
            .transport(transport.clone())
            .build(),
    );
    let outbox = AsyncTestOutbox::from(TestOutbox::with_transport("http://cv.test", "admin", transport));
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    runtime.block_on(async {
        let sent = cv.send_code(SendCode::sms("+14155552671")).await.unwrap();
        let code = outbox.latest_outbox_code("+14155552671").await.unwrap();
        let result = cv.verify_code(&sent.request_id, &code).await.unwrap();
        assert_eq!(result.status, VerificationStatus::Verified);
        let err = cv.verify_code(&sent.request_id, &code).await.unwrap_err();
        assert_eq!((err.status, err.code), (429, ErrorCode::TooManyAttempts));
    });
    assert_eq!(
        *seen.lock().unwrap(),
        vec![
            "POST /v1/contact/send-code",
            "POST /v1/contact/send-code",
            "GET /v1/admin/outbox",
            "POST /v1/contact/verify-code",
            "POST /v1/contact/verify-code"
        ]
    );
}

#[test]
fn the_async_client_reads_and_cancels_a_verification_and_checks_a_silent_one() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let resource = r#"{"data":{"requestId":"r-1","channel":"SMS","status":"canceled","to":"+1***71","createdAt":"2030-01-01T00:00:00Z","expiresAt":"2030-01-01T00:10:00Z","attemptsRemaining":5,"delivery":{"status":"sent","provider":"outbox","updatedAt":"2030-01-01T00:00:00Z"}}}"#;
    let answers = Answers(
        Mutex::new(vec![
            (200, resource),
            (200, resource),
            (
                200,
                r#"{"data":{"verified":true,"channel":"SILENT","requestId":"r-2","status":"verified","attemptsRemaining":4,"silent":{"outcome":"verified"}}}"#,
            ),
        ]),
        seen.clone(),
    );
    let cv = AsyncClient::from(Client::builder("http://cv.test", "k").transport(answers).build());
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    runtime.block_on(async {
        let read = cv.get_verification("r-1").await.unwrap();
        let canceled = cv.cancel_verification("r-1").await.unwrap();
        assert_eq!(read, canceled);
        assert_eq!(canceled.delivery.status, DeliveryState::Sent);
        let silent = cv.verify_silent("r-2").await.unwrap();
        assert_eq!(silent.silent.map(|s| s.outcome), Some(SilentOutcome::Verified));
    });
    assert_eq!(
        *seen.lock().unwrap(),
        vec![
            "GET /v1/contact/verifications/r-1",
            "POST /v1/contact/verifications/r-1/cancel",
            "POST /v1/contact/verify-code"
        ]
    );
}
