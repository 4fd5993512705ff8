<?php

declare(strict_types=1);

namespace ContactVerify\Internal;

use ContactVerify\Client;
use ContactVerify\ErrorCode;
use ContactVerify\ErrorDetail;
use ContactVerify\Exception\ApiException;
use ContactVerify\Http\CurlTransport;
use ContactVerify\Http\Request;
use ContactVerify\Http\Transport;

/**
 * @internal One base URL and bearer token over a transport: JSON in and out, answers of 300 and
 * over thrown as the ApiException of their code. Shared by Client and TestHelper.
 */
final class Connection
{
    private readonly string $baseUrl;
    private readonly Transport $transport;

    public function __construct(string $baseUrl, private readonly string $token, private readonly float $timeout, ?Transport $transport)
    {
        $this->baseUrl = rtrim($baseUrl, '/');
        $this->transport = $transport ?? new CurlTransport();
    }

    /**
     * @param array<string, mixed>|null $body
     * @param array<string, string> $headers
     * @return array<mixed> the parsed JSON body
     */
    public function request(string $method, string $path, ?array $body = null, array $headers = []): array
    {
        $all = [
            'Accept' => 'application/json',
            'Authorization' => "Bearer {$this->token}",
            'User-Agent' => 'contact-verify-php/' . Client::VERSION,
        ];
        if ($body !== null) {
            $all['Content-Type'] = 'application/json';
        }
        $response = $this->transport->send(new Request(
            $method,
            $this->baseUrl . $path,
            array_merge($all, $headers),
            $body !== null ? json_encode($body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE) : null,
            $this->timeout,
        ));
        $parsed = json_decode($response->body, true);
        if ($response->status < 300) {
            return is_array($parsed) ? $parsed : [];
        }
        $error = is_array($parsed) && is_array($parsed['error'] ?? null) ? $parsed['error'] : [];
        $retryAfter = $response->header('Retry-After');
        throw ApiException::fromAnswer(
            $response->status,
            (string) ($error['code'] ?? ($response->status === 503 ? ErrorCode::Unavailable->value : ErrorCode::Internal->value)),
            (string) ($error['message'] ?? "HTTP {$response->status}"),
            array_map(ErrorDetail::fromArray(...), is_array($error['details'] ?? null) ? array_values($error['details']) : []),
            $retryAfter !== null && ctype_digit($retryAfter) ? (int) $retryAfter : null,
        );
    }
}
