using System;
using System.Collections.Generic;

namespace ContactVerify
{
    /// <summary>
    /// A send-code request: an object initializer
    /// (<c>new SendCodeRequest { Channel = Channel.Email, Email = email, Purpose = "sign-in" }</c>) or
    /// the fluent builder (<c>SendCodeRequest.ByEmail(email).WithPurpose("sign-in").WithLocale("es-MX")</c>).
    /// Channel for one channel (SendCodeAsync), Channels for two at once (SendCodeDualAsync).
    /// </summary>
    public sealed class SendCodeRequest
    {
        public Channel? Channel { get; set; }
        /// <summary>Two different channels, sent at once; the code of either verifies either request.</summary>
        public IReadOnlyList<Channel> Channels { get; set; }
        public string Email { get; set; }
        /// <summary>E.164, or national with Country.</summary>
        public string Phone { get; set; }
        /// <summary>ISO 3166-1 alpha-2 country of a national phone number (FR, US...).</summary>
        public string Country { get; set; }
        /// <summary>Text (default) or Call, for SMS and WhatsApp.</summary>
        public DeliveryType? DeliveryType { get; set; }
        /// <summary>What the code is for (sign-in, sign-up...): shown in the message and in analytics.</summary>
        public string Purpose { get; set; }
        /// <summary>A sentence added to the message.</summary>
        public string CustomMessage { get; set; }
        /// <summary>The recipient's BCP 47 language tag (es, pt-BR, de-AT); English when unsupported.</summary>
        public string Locale { get; set; }
        /// <summary>EMAIL only: a magic link beside the code (the service needs PUBLIC_BASE_URL); see SendLink.</summary>
        public SendLink Link { get; set; }
        /// <summary>
        /// SILENT only: the channel (Sms, WhatsApp or Voice) that sends a code, as the request's dual sibling, when
        /// the silent check fails or does not succeed in time; either request id then verifies it.
        /// </summary>
        public Channel? Fallback { get; set; }
        /// <summary>
        /// Your own Idempotency-Key (a retry of yours with the same key gets the first answer back, no
        /// second code); by default each send gets a random one, kept across the library's retries.
        /// </summary>
        public string IdempotencyKey { get; set; }

        public static SendCodeRequest ByEmail(string email) => new SendCodeRequest { Channel = ContactVerify.Channel.Email, Email = email };

        public static SendCodeRequest BySms(string phone) => new SendCodeRequest { Channel = ContactVerify.Channel.Sms, Phone = phone };

        public static SendCodeRequest ByWhatsApp(string phone) => new SendCodeRequest { Channel = ContactVerify.Channel.WhatsApp, Phone = phone };

        /// <summary>A phone call to <paramref name="phone"/> that reads the code.</summary>
        public static SendCodeRequest ByVoice(string phone) => new SendCodeRequest { Channel = ContactVerify.Channel.Voice, Phone = phone };

        /// <summary>Silent network authentication of <paramref name="phone"/>: the app opens the entry's Silent.Url on the device.</summary>
        public static SendCodeRequest BySilent(string phone) => new SendCodeRequest { Channel = ContactVerify.Channel.Silent, Phone = phone };

        public static SendCodeRequest Dual(Channel first, Channel second)
        {
            if (first == second) throw new ArgumentException("two different channels");
            return new SendCodeRequest { Channels = new[] { first, second } };
        }

        public SendCodeRequest WithEmail(string email) { Email = email; return this; }
        public SendCodeRequest WithPhone(string phone) { Phone = phone; return this; }
        public SendCodeRequest WithCountry(string country) { Country = country; return this; }
        public SendCodeRequest WithDeliveryType(DeliveryType deliveryType) { DeliveryType = deliveryType; return this; }
        public SendCodeRequest WithPurpose(string purpose) { Purpose = purpose; return this; }
        public SendCodeRequest WithCustomMessage(string customMessage) { CustomMessage = customMessage; return this; }
        public SendCodeRequest WithLocale(string locale) { Locale = locale; return this; }
        public SendCodeRequest WithLink(SendLink link) { Link = link; return this; }
        public SendCodeRequest WithFallback(Channel fallback) { Fallback = fallback; return this; }
        public SendCodeRequest WithIdempotencyKey(string idempotencyKey) { IdempotencyKey = idempotencyKey; return this; }

        /// <summary>The JSON body (IdempotencyKey is a header).</summary>
        internal IDictionary<string, object> Body()
        {
            var body = new Dictionary<string, object>();
            if (Channel.HasValue) body["channel"] = Channel.Value;
            if (Channels != null) body["channels"] = Channels;
            if (Email != null) body["email"] = Email;
            if (Phone != null) body["phone"] = Phone;
            if (Country != null) body["country"] = Country;
            if (DeliveryType.HasValue) body["deliveryType"] = DeliveryType.Value;
            if (Purpose != null) body["purpose"] = Purpose;
            if (CustomMessage != null) body["customMessage"] = CustomMessage;
            if (Locale != null) body["locale"] = Locale;
            if (Link != null) body["link"] = Link.Body();
            if (Fallback.HasValue) body["fallback"] = Fallback.Value;
            return body;
        }
    }
}
