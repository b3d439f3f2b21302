process.env.ANVIL_TEST_DB = 'sqlite';
