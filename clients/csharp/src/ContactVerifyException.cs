using System;
using System.Collections.Generic;

namespace ContactVerify
{
    /// <summary>
    /// Every failed call: the service's error body, with the HTTP status and Retry-After. Code is the
    /// contract's stable code (TOO_MANY_ATTEMPTS, RATE_LIMITED, UNAUTHORIZED, ...), or NETWORK_ERROR
    /// with Status 0 when no answer came.
    /// </summary>
    public sealed class ContactVerifyException : Exception
    {
        public ContactVerifyException(int status, string code, string message, IReadOnlyList<ErrorDetail> details, int? retryAfter)
            : base(status + " " + code + ": " + message)
        {
            Status = status;
            Code = code;
            Details = details ?? new List<ErrorDetail>();
            RetryAfter = retryAfter;
        }

        public int Status { get; }
        public string Code { get; }
        public IReadOnlyList<ErrorDetail> Details { get; }
        /// <summary>Seconds to wait before a retry can succeed, when the service sent Retry-After.</summary>
        public int? RetryAfter { get; }
    }
}
