using System;
using System.Collections.Generic;
using System.Linq;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;

namespace ContactVerify
{
    /// <summary>
    /// For tests with a test-mode key (cvk_test_...): reads codes from the service's outbox with the
    /// admin token, where test-mode messages stay (their items carry the code while the request is
    /// pending). Never for production: your users type the code they received.
    /// </summary>
    public sealed class TestOutbox
    {
        private readonly Transport _transport;

        public TestOutbox(string baseUrl, string adminToken, HttpClient httpClient = null)
        {
            _transport = new Transport(baseUrl, adminToken, httpClient ?? Shared.Value, TimeSpan.FromSeconds(10), 0, TimeSpan.Zero);
        }

        private static readonly Lazy<HttpClient> Shared = new Lazy<HttpClient>(() => new HttpClient());

        /// <summary>The outbox's messages to <paramref name="to"/>, newest first.</summary>
        public async Task<IReadOnlyList<OutboxMessage>> MessagesAsync(string to, CancellationToken cancel = default(CancellationToken))
        {
            var answer = await _transport.CallAsync(HttpMethod.Get, "/v1/admin/outbox?to=" + Uri.EscapeDataString(to), null, null, cancel).ConfigureAwait(false);
            return (answer as IDictionary<string, object>).List("data", OutboxMessage.From) ?? new List<OutboxMessage>();
        }

        /// <summary>The code of the newest message to <paramref name="to"/>.</summary>
        /// <exception cref="InvalidOperationException">There is none, or it carries no code (a live request, or no longer pending).</exception>
        public async Task<string> LatestOutboxCodeAsync(string to, CancellationToken cancel = default(CancellationToken))
        {
            var messages = await MessagesAsync(to, cancel).ConfigureAwait(false);
            // Newest first as listed; the latest createdAt wins, the first listed on a tie.
            var newest = messages.Aggregate((OutboxMessage)null, (best, m) => best == null || m.CreatedAt > best.CreatedAt ? m : best);
            if (newest == null || newest.Code == null) throw new InvalidOperationException("no code in the outbox for " + to + " (none, or a live message)");
            return newest.Code;
        }
    }
}
