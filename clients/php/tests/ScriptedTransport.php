<?php

declare(strict_types=1);

namespace ContactVerify\Tests;

use ContactVerify\Http\Request;
use ContactVerify\Http\Response;
use ContactVerify\Http\Transport;

/** Answers from a script, in order (the last answer again once they run out), and records each request. */
final class ScriptedTransport implements Transport
{
    /** @var list<Request> */
    public array $requests = [];

    /** @var list<Response|\Throwable> */
    private array $answers;

    public function __construct(Response|\Throwable ...$answers)
    {
        $this->answers = array_values($answers);
    }

    /** @param array<mixed>|string $body */
    public static function answer(int $status, array|string $body, ?string $retryAfter = null): Response
    {
        return new Response(
            $status,
            $retryAfter !== null ? ['retry-after' => $retryAfter] : [],
            is_string($body) ? $body : json_encode($body, JSON_THROW_ON_ERROR),
        );
    }

    /** @return array<string, mixed> an error body of the contract */
    public static function error(string $code): array
    {
        return ['error' => ['code' => $code, 'message' => 'scripted', 'details' => [['field' => 'email', 'message' => 'm']]]];
    }

    public function send(Request $request): Response
    {
        $this->requests[] = $request;
        $answer = count($this->answers) === 1 ? $this->answers[0] : array_shift($this->answers);
        if ($answer instanceof \Throwable) {
            throw $answer;
        }
        return $answer;
    }

    /** @return array<mixed> the JSON body of request $i */
    public function body(int $i): array
    {
        return json_decode((string) $this->requests[$i]->body, true, 512, JSON_THROW_ON_ERROR);
    }
}
