<?php

declare(strict_types=1);

namespace ContactVerify\Http;

use ContactVerify\Exception\ConnectionException;

/**
 * How the clients reach the service: one request in, one response out, whatever its status. Pass
 * your own to Client or TestHelper to log, record or replace CurlTransport (the default).
 */
interface Transport
{
    /** @throws ConnectionException when no answer came */
    public function send(Request $request): Response;
}
