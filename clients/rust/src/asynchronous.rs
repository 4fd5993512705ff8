//! The `tokio` feature: the client's calls as futures.
//!
//! Debian's crates hold no non-blocking HTTP client (no hyper, no reqwest), so each call runs the
//! blocking client on tokio's blocking thread pool (`spawn_blocking`): the runtime's workers are
//! never blocked, at the cost of one pooled thread per call in flight.

use crate::{
    Client, Error, Health, OutboxMessage, Result, SendCode, SendCodeEntry, TestOutbox, Verification, VerifyCodeResult,
};

async fn blocking<T, F>(call: F) -> Result<T>
where
    F: FnOnce() -> Result<T> + Send + 'static,
    T: Send + 'static,
{
    match tokio::task::spawn_blocking(call).await {
        Ok(result) => result,
        Err(err) if err.is_panic() => std::panic::resume_unwind(err.into_panic()),
        Err(err) => Err(Error::network(
            format!("the call was cancelled: {}", err),
            Some(Box::new(err)),
        )),
    }
}

/// [`Client`]'s calls as futures, for a tokio runtime: `AsyncClient::from(client)` or
/// `AsyncClient::new(base_url, api_key)`.
#[derive(Clone)]
pub struct AsyncClient {
    inner: Client,
}

impl From<Client> for AsyncClient {
    fn from(inner: Client) -> Self {
        AsyncClient { inner }
    }
}

impl AsyncClient {
    /// A client with the defaults of [`Client::new`].
    pub fn new(base_url: impl Into<String>, api_key: impl Into<String>) -> Self {
        Client::new(base_url, api_key).into()
    }

    /// The blocking client underneath.
    pub fn blocking(&self) -> &Client {
        &self.inner
    }

    /// See [`Client::send_code`].
    pub async fn send_code(&self, request: SendCode) -> Result<SendCodeEntry> {
        let client = self.inner.clone();
        blocking(move || client.send_code(request)).await
    }

    /// See [`Client::send_code_dual`].
    pub async fn send_code_dual(&self, request: SendCode) -> Result<Vec<SendCodeEntry>> {
        let client = self.inner.clone();
        blocking(move || client.send_code_dual(request)).await
    }

    /// See [`Client::verify_code`].
    pub async fn verify_code(&self, request_id: &str, otp_code: &str) -> Result<VerifyCodeResult> {
        let (client, request_id, otp_code) = (self.inner.clone(), request_id.to_string(), otp_code.to_string());
        blocking(move || client.verify_code(&request_id, &otp_code)).await
    }

    /// See [`Client::verify_silent`].
    pub async fn verify_silent(&self, request_id: &str) -> Result<VerifyCodeResult> {
        let (client, request_id) = (self.inner.clone(), request_id.to_string());
        blocking(move || client.verify_silent(&request_id)).await
    }

    /// See [`Client::get_verification`].
    pub async fn get_verification(&self, request_id: &str) -> Result<Verification> {
        let (client, request_id) = (self.inner.clone(), request_id.to_string());
        blocking(move || client.get_verification(&request_id)).await
    }

    /// See [`Client::cancel_verification`].
    pub async fn cancel_verification(&self, request_id: &str) -> Result<Verification> {
        let (client, request_id) = (self.inner.clone(), request_id.to_string());
        blocking(move || client.cancel_verification(&request_id)).await
    }

    /// See [`Client::health`].
    pub async fn health(&self) -> Result<Health> {
        let client = self.inner.clone();
        blocking(move || client.health()).await
    }
}

/// [`TestOutbox`]'s calls as futures.
#[derive(Clone)]
pub struct AsyncTestOutbox {
    inner: TestOutbox,
}

impl From<TestOutbox> for AsyncTestOutbox {
    fn from(inner: TestOutbox) -> Self {
        AsyncTestOutbox { inner }
    }
}

impl AsyncTestOutbox {
    /// See [`TestOutbox::new`].
    pub fn new(base_url: impl Into<String>, admin_token: impl Into<String>) -> Self {
        TestOutbox::new(base_url, admin_token).into()
    }

    /// See [`TestOutbox::messages`].
    pub async fn messages(&self, to: &str) -> Result<Vec<OutboxMessage>> {
        let (outbox, to) = (self.inner.clone(), to.to_string());
        blocking(move || outbox.messages(&to)).await
    }

    /// See [`TestOutbox::latest_outbox_code`].
    pub async fn latest_outbox_code(&self, to: &str) -> Result<String> {
        let (outbox, to) = (self.inner.clone(), to.to_string());
        blocking(move || outbox.latest_outbox_code(&to)).await
    }
}
