using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net.Http;
using System.Runtime.Serialization.Json;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace ContactVerify
{
    /// <summary>
    /// A client of the contact verification API. Retries 503 and 429 RATE_LIMITED answers that carry
    /// Retry-After, at most MaxRetries times; never TOO_MANY_ATTEMPTS or another 4xx. Every send
    /// carries an Idempotency-Key kept across its retries, so a retry never sends a second code.
    /// </summary>
    public sealed class ContactVerifyClient : IDisposable
    {
        public const string Version = "0.1.0";
        private readonly string _baseUrl;
        private readonly string _apiKey;
        private readonly HttpClient _http;

        public ContactVerifyClient(string baseUrl, string apiKey, TimeSpan? timeout = null, int maxRetries = 2, int maxRetryAfterSeconds = 10)
        {
            _baseUrl = baseUrl.TrimEnd('/');
            _apiKey = apiKey;
            MaxRetries = maxRetries;
            MaxRetryAfterSeconds = maxRetryAfterSeconds;
            _http = new HttpClient { Timeout = timeout ?? TimeSpan.FromSeconds(10) };
        }

        public int MaxRetries { get; }
        public int MaxRetryAfterSeconds { get; }

        /// <summary>Sends a code on one channel (request.Channel).</summary>
        public Task<SendEntry> SendCodeAsync(SendRequest request, string idempotencyKey = null, int? maxRetries = null, CancellationToken cancel = default(CancellationToken))
        {
            return SendAsync<SendEntry>(request, idempotencyKey, maxRetries, cancel);
        }

        /// <summary>Sends a code on two channels at once (request.Channels); one entry per channel, in order.</summary>
        public Task<List<SendEntry>> SendCodeDualAsync(SendRequest request, string idempotencyKey = null, int? maxRetries = null, CancellationToken cancel = default(CancellationToken))
        {
            return SendAsync<List<SendEntry>>(request, idempotencyKey, maxRetries, cancel);
        }

        private async Task<T> SendAsync<T>(SendRequest request, string idempotencyKey, int? maxRetries, CancellationToken cancel)
        {
            var headers = new Dictionary<string, string> { { "Idempotency-Key", idempotencyKey ?? Guid.NewGuid().ToString() } };
            var answer = await CallAsync<Envelope<T>>(HttpMethod.Post, "/v1/contact/send-code", Serialize(request), maxRetries, headers, cancel).ConfigureAwait(false);
            return answer.Data;
        }

        /// <summary>Checks a code; a wrong code is Verified false, not an exception.</summary>
        public async Task<VerifyResult> VerifyCodeAsync(string requestId, string otpCode, int? maxRetries = null, CancellationToken cancel = default(CancellationToken))
        {
            var body = "{\"requestId\":" + Quote(requestId) + ",\"otpCode\":" + Quote(otpCode) + "}";
            var answer = await CallAsync<Envelope<VerifyResult>>(HttpMethod.Post, "/v1/contact/verify-code", body, maxRetries, null, cancel).ConfigureAwait(false);
            return answer.Data;
        }

        /// <summary>The service's health (no key needed).</summary>
        public Task<Health> HealthAsync(int? maxRetries = null, CancellationToken cancel = default(CancellationToken))
        {
            return CallAsync<Health>(HttpMethod.Get, "/health", null, maxRetries, null, cancel);
        }

        public void Dispose() => _http.Dispose();

        private async Task<T> CallAsync<T>(HttpMethod method, string path, string body, int? maxRetries, Dictionary<string, string> headers, CancellationToken cancel)
        {
            var limit = maxRetries ?? MaxRetries;
            for (var attempt = 0; ; attempt++)
            {
                try
                {
                    return await OnceAsync<T>(method, path, body, headers, cancel).ConfigureAwait(false);
                }
                catch (ContactVerifyException e)
                {
                    var wait = RetryDelay(e, attempt);
                    if (attempt >= limit || wait == null) throw;
                    await Task.Delay(wait.Value, cancel).ConfigureAwait(false);
                }
            }
        }

        private TimeSpan? RetryDelay(ContactVerifyException e, int attempt)
        {
            if (e.Status == 503)
                return e.RetryAfter.HasValue
                    ? TimeSpan.FromSeconds(Math.Min(e.RetryAfter.Value, MaxRetryAfterSeconds))
                    : TimeSpan.FromMilliseconds(250 << attempt);
            if (e.Status == 429 && e.Code == "RATE_LIMITED" && e.RetryAfter.HasValue)
                return e.RetryAfter.Value <= MaxRetryAfterSeconds ? TimeSpan.FromSeconds(e.RetryAfter.Value) : (TimeSpan?)null;
            return null;
        }

        private async Task<T> OnceAsync<T>(HttpMethod method, string path, string body, Dictionary<string, string> headers, CancellationToken cancel)
        {
            var request = new HttpRequestMessage(method, _baseUrl + path);
            request.Headers.TryAddWithoutValidation("Accept", "application/json");
            request.Headers.TryAddWithoutValidation("Authorization", "Bearer " + _apiKey);
            request.Headers.TryAddWithoutValidation("User-Agent", "contact-verify-dotnet/" + Version);
            if (headers != null)
                foreach (var h in headers) request.Headers.TryAddWithoutValidation(h.Key, h.Value);
            if (body != null) request.Content = new StringContent(body, Encoding.UTF8, "application/json");
            HttpResponseMessage response;
            string text;
            try
            {
                response = await _http.SendAsync(request, cancel).ConfigureAwait(false);
                text = await response.Content.ReadAsStringAsync().ConfigureAwait(false);
            }
            catch (Exception e) when (e is HttpRequestException || e is TaskCanceledException || e is IOException)
            {
                throw new ContactVerifyException(0, "NETWORK_ERROR", "No answer from " + _baseUrl + ": " + e.Message, null, null);
            }
            var status = (int)response.StatusCode;
            if (status < 300) return Deserialize<T>(text);
            ErrorFields error = null;
            try { error = Deserialize<ErrorBody>(text)?.Error; } catch (Exception) { /* not JSON: a proxy's page */ }
            throw new ContactVerifyException(
                status,
                error?.Code ?? (status == 503 ? "UNAVAILABLE" : "INTERNAL"),
                error?.Message ?? "HTTP " + status,
                error?.Details,
                RetryAfterOf(response));
        }

        private static int? RetryAfterOf(HttpResponseMessage response)
        {
            IEnumerable<string> values;
            int seconds;
            if (response.Headers.TryGetValues("Retry-After", out values) && int.TryParse(values.FirstOrDefault(), out seconds))
                return seconds;
            return null;
        }

        private static string Serialize<T>(T value)
        {
            using (var stream = new MemoryStream())
            {
                new DataContractJsonSerializer(typeof(T)).WriteObject(stream, value);
                return Encoding.UTF8.GetString(stream.ToArray());
            }
        }

        private static T Deserialize<T>(string text)
        {
            using (var stream = new MemoryStream(Encoding.UTF8.GetBytes(text)))
                return (T)new DataContractJsonSerializer(typeof(T)).ReadObject(stream);
        }

        private static string Quote(string s) => Serialize(s ?? "");
    }
}
