<?php

declare(strict_types=1);

namespace ContactVerify\Exception;

/** 5xx, once the retries are spent. */
final class ServerException extends ApiException
{
}
