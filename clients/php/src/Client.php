<?php

declare(strict_types=1);

namespace ContactVerify;

use ContactVerify\Exception\ApiException;
use ContactVerify\Exception\RateLimitedException;
use ContactVerify\Http\Transport;
use ContactVerify\Internal\Connection;
use ContactVerify\Internal\Wire;

/**
 * Sends and verifies one-time codes.
 *
 *     $cv = new Client(baseUrl: getenv('CV_BASE_URL'), apiKey: getenv('CV_API_KEY'));
 *     $sent = $cv->sendCode(Channel::Email, email: 'jane@example.com');
 *     $cv->verifyCode($sent->requestId, '042817')->verified;
 *     $cv->getVerification($sent->requestId)->status;
 *
 * Retries 503 and 429 RATE_LIMITED answers with a Retry-After of at most $maxRetryAfter seconds,
 * at most $maxRetries times; never TOO_MANY_ATTEMPTS, another 4xx or a ConnectionException. Each
 * send carries an Idempotency-Key kept across its retries, so a retry never sends a second code.
 */
final class Client
{
    public const VERSION = '0.2.0';

    private readonly Connection $connection;

    /**
     * @param Transport|null $transport how requests are made: CurlTransport by default
     * @param float $timeout seconds, per attempt
     */
    public function __construct(
        string $baseUrl,
        string $apiKey,
        ?Transport $transport = null,
        float $timeout = 10.0,
        private readonly int $maxRetries = 2,
        private readonly int $maxRetryAfter = 10,
    ) {
        $this->connection = new Connection($baseUrl, $apiKey, $timeout, $transport);
    }

    /**
     * Sends a code on one channel. $country is ISO 3166-1 alpha-2 (inferred from $phone when
     * null); $locale the recipient's BCP 47 tag ('pt-BR'); $idempotencyKey your own key for this
     * send (a random one otherwise): a send repeated with it is answered as the first was.
     * $link (EMAIL only; the service needs PUBLIC_BASE_URL): a magic link beside the code, see
     * SendLink. $fallback (SILENT only: Sms, WhatsApp or Voice): the channel that sends a code when
     * the silent check fails or does not succeed in time; either request id then verifies it.
     *
     * @throws ApiException
     */
    public function sendCode(
        Channel $channel,
        ?string $email = null,
        ?string $phone = null,
        ?string $country = null,
        ?DeliveryType $deliveryType = null,
        ?string $purpose = null,
        ?string $customMessage = null,
        ?string $locale = null,
        ?SendLink $link = null,
        ?Channel $fallback = null,
        ?string $idempotencyKey = null,
        ?int $maxRetries = null,
    ): SendCodeEntry {
        $body = ['channel' => $channel->value]
            + $this->options($email, $phone, $country, $deliveryType, $purpose, $customMessage, $locale, $link)
            + Wire::compact(['fallback' => $fallback?->value]);
        return SendCodeEntry::fromArray($this->send($body, $idempotencyKey, $maxRetries));
    }

    /**
     * Sends a code on two channels at once; the entries come back in the order of $channels. The
     * code of either verifies either request. Same options as sendCode().
     *
     * @param list<Channel> $channels exactly two different channels
     * @return list<SendCodeEntry>
     * @throws ApiException
     */
    public function sendDualCode(
        array $channels,
        ?string $email = null,
        ?string $phone = null,
        ?string $country = null,
        ?DeliveryType $deliveryType = null,
        ?string $purpose = null,
        ?string $customMessage = null,
        ?string $locale = null,
        ?SendLink $link = null,
        ?string $idempotencyKey = null,
        ?int $maxRetries = null,
    ): array {
        $wire = array_map(static fn (Channel $c): string => $c->value, array_values($channels));
        $body = ['channels' => $wire] + $this->options($email, $phone, $country, $deliveryType, $purpose, $customMessage, $locale, $link);
        return array_map(SendCodeEntry::fromArray(...), $this->send($body, $idempotencyKey, $maxRetries));
    }

    /**
     * Checks a code; a wrong one is a result with $verified false, not an exception. A SILENT
     * request is checked without $otpCode (the service asks the provider; $result->silent->outcome
     * says what it concluded, Pending: ask again), or with the code its provider's URL handed the
     * device (letters too: sent as `code`).
     *
     * @throws ApiException
     */
    public function verifyCode(string $requestId, ?string $otpCode = null, ?int $maxRetries = null): VerifyCodeResult
    {
        $body = ['requestId' => $requestId];
        if ($otpCode !== null) {
            $body[ctype_digit($otpCode) ? 'otpCode' : 'code'] = $otpCode;
        }
        $answer = $this->withRetries($maxRetries, fn () => $this->connection->request('POST', '/v1/contact/verify-code', $body));
        return VerifyCodeResult::fromArray($answer['data']);
    }

    /**
     * The request as it is now: its status, how it was verified, what became of its message.
     *
     * @throws ApiException NotFoundException for an unknown id, or another account's
     */
    public function getVerification(string $requestId, ?int $maxRetries = null): Verification
    {
        $answer = $this->withRetries($maxRetries, fn () => $this->connection->request('GET', self::verificationPath($requestId)));
        return Verification::fromArray($answer['data']);
    }

    /**
     * Cancels a pending request and its dual sibling, and answers it. A settled request is answered
     * as it is, unchanged, so a repeated cancel is harmless.
     *
     * @throws ApiException NotFoundException for an unknown id, or another account's
     */
    public function cancelVerification(string $requestId, ?int $maxRetries = null): Verification
    {
        $path = self::verificationPath($requestId) . '/cancel';
        $answer = $this->withRetries($maxRetries, fn () => $this->connection->request('POST', $path));
        return Verification::fromArray($answer['data']);
    }

    private static function verificationPath(string $requestId): string
    {
        if ($requestId === '') {
            throw new \InvalidArgumentException('requestId is empty');
        }
        return '/v1/contact/verifications/' . rawurlencode($requestId);
    }

    /**
     * The service's health (no key needed).
     *
     * @throws ApiException
     */
    public function health(?int $maxRetries = null): Health
    {
        return Health::fromArray($this->withRetries($maxRetries, fn () => $this->connection->request('GET', '/health')));
    }

    /** @return array<string, mixed> */
    private function options(
        ?string $email,
        ?string $phone,
        ?string $country,
        ?DeliveryType $deliveryType,
        ?string $purpose,
        ?string $customMessage,
        ?string $locale,
        ?SendLink $link,
    ): array {
        return Wire::compact([
            'email' => $email,
            'phone' => $phone,
            'country' => $country,
            'deliveryType' => $deliveryType?->value,
            'purpose' => $purpose,
            'customMessage' => $customMessage,
            'locale' => $locale,
            'link' => $link,
        ]);
    }

    /**
     * @param array<string, mixed> $body
     * @return array<mixed> the answer's data
     */
    private function send(array $body, ?string $idempotencyKey, ?int $maxRetries): array
    {
        $headers = ['Idempotency-Key' => $idempotencyKey ?? self::uuid()];
        $answer = $this->withRetries(
            $maxRetries,
            fn () => $this->connection->request('POST', '/v1/contact/send-code', $body, $headers),
        );
        return $answer['data'];
    }

    /**
     * @param callable(): array<mixed> $call
     * @return array<mixed>
     */
    private function withRetries(?int $maxRetries, callable $call): array
    {
        $limit = $maxRetries ?? $this->maxRetries;
        for ($attempt = 0; ; $attempt++) {
            try {
                return $call();
            } catch (ApiException $e) {
                $wait = $this->retryDelay($e, $attempt);
                if ($attempt >= $limit || $wait === null) {
                    throw $e;
                }
                usleep((int) ($wait * 1_000_000));
            }
        }
    }

    private function retryDelay(ApiException $e, int $attempt): ?float
    {
        $retryAfter = $e->getRetryAfter();
        if ($e->getStatus() === 503) {
            return $retryAfter !== null ? (float) min($retryAfter, $this->maxRetryAfter) : 0.25 * (2 ** $attempt);
        }
        if ($e instanceof RateLimitedException && $retryAfter !== null) {
            return $retryAfter <= $this->maxRetryAfter ? (float) $retryAfter : null;
        }
        return null;
    }

    private static function uuid(): string
    {
        $b = random_bytes(16);
        $b[6] = chr((ord($b[6]) & 0x0f) | 0x40);
        $b[8] = chr((ord($b[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($b), 4));
    }
}
