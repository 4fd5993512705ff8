using System;
using System.Collections.Generic;

namespace ContactVerify
{
    /// <summary>
    /// Every failed call: the service's error body, with the HTTP status and Retry-After. Code is the
    /// contract's stable code as sent (TOO_MANY_ATTEMPTS, RATE_LIMITED, UNAUTHORIZED...), ErrorCode
    /// the same as an enum (Unknown for a code this version does not know); NETWORK_ERROR with
    /// Status 0 when no answer came.
    /// </summary>
    public sealed class ContactVerifyException : Exception
    {
        public ContactVerifyException(int status, string code, string message, IReadOnlyList<ErrorDetail> details, TimeSpan? retryAfter, Exception inner = null)
            : base(message, inner)
        {
            Status = status;
            Code = code;
            ErrorCode = WireValue.Parse<ErrorCode>(code);
            Details = details ?? new List<ErrorDetail>();
            RetryAfter = retryAfter;
        }

        /// <summary>The HTTP status; 0 when no answer came.</summary>
        public int Status { get; }
        public string Code { get; }
        public ErrorCode ErrorCode { get; }
        /// <summary>One entry per problem: field, message and, where one is concerned, channel.</summary>
        public IReadOnlyList<ErrorDetail> Details { get; }
        /// <summary>How long to wait before a retry can succeed, when the service sent Retry-After.</summary>
        public TimeSpan? RetryAfter { get; }

        public override string ToString() => GetType().FullName + ": " + Status + " " + Code + ": " + Message;
    }
}
