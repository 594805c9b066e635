import { Module } from '@nestjs/common';
import { Transactions } from '@app/common';
import { AccountsRepository } from './accounts.repository.js';
import { AccountsService } from './accounts.service.js';
import { PasswordHasher } from './password-hasher.js';

/** The dashboard's people: accounts, scrypt password hashes behind the hashing gate, sign-in throttling. */
@Module({
  providers: [AccountsService, AccountsRepository, PasswordHasher, Transactions],
  exports: [AccountsService, PasswordHasher],
})
export class AccountsModule {}
