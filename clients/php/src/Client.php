<?php

declare(strict_types=1);

namespace ContactVerify;

/**
 * A client of the contact verification API. Retries 503 and 429 RATE_LIMITED answers that carry
 * Retry-After, at most $maxRetries times; never TOO_MANY_ATTEMPTS or another 4xx. Every send
 * carries an Idempotency-Key kept across its retries, so a retry never sends a second code.
 */
final class Client
{
    public const VERSION = '0.1.0';

    private string $baseUrl;

    public function __construct(
        string $baseUrl,
        private string $apiKey,
        private float $timeoutSeconds = 10.0,
        private int $maxRetries = 2,
        private int $maxRetryAfter = 10,
    ) {
        $this->baseUrl = rtrim($baseUrl, '/');
    }

    /**
     * Sends a code: with 'channel', one entry back; with 'channels' (two), a list in that order.
     *
     * @param array{channel?: string, channels?: list<string>, email?: string, phone?: string,
     *   country?: string, deliveryType?: string, purpose?: string, customMessage?: string,
     *   locale?: string} $request (locale: the recipient's BCP 47 tag, e.g. 'pt-BR'; English when unsupported)
     * @return array<string, mixed>|list<array<string, mixed>> entries with requestId, channel,
     *   status, expiresAt, to, deliveryType?, error?, risk?
     */
    public function sendCode(array $request, ?string $idempotencyKey = null, ?int $maxRetries = null): array
    {
        $key = $idempotencyKey ?? self::uuid();
        return $this->call('POST', '/v1/contact/send-code', $request, $maxRetries, ["Idempotency-Key: {$key}"])['data'];
    }

    /**
     * Checks a code; a wrong code is verified false, not an exception.
     *
     * @return array{verified: bool, channel: string, requestId: string, status: string, attemptsRemaining: int}
     */
    public function verifyCode(string $requestId, string $otpCode, ?int $maxRetries = null): array
    {
        return $this->call('POST', '/v1/contact/verify-code', ['requestId' => $requestId, 'otpCode' => $otpCode], $maxRetries)['data'];
    }

    /** @return array<string, mixed> the service's health (no key needed) */
    public function health(?int $maxRetries = null): array
    {
        return $this->call('GET', '/health', null, $maxRetries);
    }

    /**
     * @param array<string, mixed>|null $body
     * @param list<string> $headers
     * @return array<mixed>
     */
    private function call(string $method, string $path, ?array $body, ?int $maxRetries, array $headers = []): array
    {
        $limit = $maxRetries ?? $this->maxRetries;
        for ($attempt = 0; ; $attempt++) {
            try {
                return $this->once($method, $path, $body, $headers);
            } catch (ContactVerifyException $e) {
                $wait = $this->retryDelay($e, $attempt);
                if ($attempt >= $limit || $wait === null) {
                    throw $e;
                }
                usleep((int) ($wait * 1_000_000));
            }
        }
    }

    private function retryDelay(ContactVerifyException $e, int $attempt): ?float
    {
        if ($e->status === 503) {
            return $e->retryAfter !== null ? (float) min($e->retryAfter, $this->maxRetryAfter) : 0.25 * (2 ** $attempt);
        }
        if ($e->status === 429 && $e->errorCode === 'RATE_LIMITED' && $e->retryAfter !== null) {
            return $e->retryAfter <= $this->maxRetryAfter ? (float) $e->retryAfter : null;
        }
        return null;
    }

    /**
     * @param array<string, mixed>|null $body
     * @param list<string> $headers
     * @return array<mixed>
     */
    private function once(string $method, string $path, ?array $body, array $headers): array
    {
        $curl = curl_init($this->baseUrl . $path);
        $retryAfter = null;
        $all = array_merge([
            'Accept: application/json',
            "Authorization: Bearer {$this->apiKey}",
            'User-Agent: contact-verify-php/' . self::VERSION,
        ], $body !== null ? ['Content-Type: application/json'] : [], $headers);
        curl_setopt_array($curl, [
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_HTTPHEADER => $all,
            CURLOPT_TIMEOUT_MS => (int) ($this->timeoutSeconds * 1000),
            CURLOPT_HEADERFUNCTION => static function ($_, string $line) use (&$retryAfter): int {
                if (preg_match('/^retry-after:\s*(\d+)\s*$/i', $line, $m)) {
                    $retryAfter = (int) $m[1];
                }
                return strlen($line);
            },
        ]);
        if ($body !== null) {
            curl_setopt($curl, CURLOPT_POSTFIELDS, json_encode($body, JSON_THROW_ON_ERROR));
        }
        $raw = curl_exec($curl);
        $status = (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
        $failure = curl_error($curl);
        curl_close($curl);
        if ($raw === false) {
            throw new ContactVerifyException(0, 'NETWORK_ERROR', "No answer from {$this->baseUrl}: {$failure}");
        }
        $parsed = json_decode((string) $raw, true);
        if ($status < 300) {
            return is_array($parsed) ? $parsed : [];
        }
        $error = is_array($parsed) && is_array($parsed['error'] ?? null) ? $parsed['error'] : [];
        throw new ContactVerifyException(
            $status,
            (string) ($error['code'] ?? ($status === 503 ? 'UNAVAILABLE' : 'INTERNAL')),
            (string) ($error['message'] ?? "HTTP {$status}"),
            $error['details'] ?? [],
            $retryAfter,
        );
    }

    private static function uuid(): string
    {
        $b = random_bytes(16);
        $b[6] = chr((ord($b[6]) & 0x0f) | 0x40);
        $b[8] = chr((ord($b[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($b), 4));
    }
}
