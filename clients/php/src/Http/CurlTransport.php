<?php

declare(strict_types=1);

namespace ContactVerify\Http;

use ContactVerify\Exception\ConnectionException;

/** The default transport: ext-curl, one handle per request. */
final class CurlTransport implements Transport
{
    public function send(Request $request): Response
    {
        $headers = [];
        $curl = curl_init($request->url);
        curl_setopt_array($curl, [
            CURLOPT_CUSTOMREQUEST => $request->method,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_HTTPHEADER => array_map(
                static fn (string $name, string $value): string => "{$name}: {$value}",
                array_keys($request->headers),
                array_values($request->headers),
            ),
            CURLOPT_TIMEOUT_MS => (int) ($request->timeout * 1000),
            CURLOPT_HEADERFUNCTION => static function ($_, string $line) use (&$headers): int {
                if (str_starts_with($line, 'HTTP/')) {
                    $headers = []; // a new response (after a 100 Continue): its headers only
                } elseif (str_contains($line, ':')) {
                    [$name, $value] = explode(':', $line, 2);
                    $headers[strtolower(trim($name))] = trim($value);
                }
                return strlen($line);
            },
        ]);
        if ($request->body !== null) {
            curl_setopt($curl, CURLOPT_POSTFIELDS, $request->body);
        }
        $body = curl_exec($curl);
        $status = (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
        $failure = curl_error($curl);
        curl_close($curl);
        if ($body === false || $status === 0) {
            $origin = parse_url($request->url, PHP_URL_SCHEME) . '://' . parse_url($request->url, PHP_URL_HOST)
                . (parse_url($request->url, PHP_URL_PORT) !== null ? ':' . parse_url($request->url, PHP_URL_PORT) : '');
            throw new ConnectionException("No answer from {$origin}: {$failure}");
        }
        return new Response($status, $headers, (string) $body);
    }
}
